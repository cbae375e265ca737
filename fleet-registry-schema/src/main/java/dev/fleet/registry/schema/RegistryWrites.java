package dev.fleet.registry.schema;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record3;
import org.jooq.Result;

/**
 * The registry's writes, once for both engines, through jOOQ's generated table and by column name: a
 * registration (replace-on-pid, optional retention, update-then-insert, the row read back), a
 * heartbeat and a stop. Each runs inside a transaction its adapter opens, retries and words the
 * failure of; what differs by engine comes from {@link RegistryEngine}. An update-then-insert rather
 * than an upsert: a table another tool made need not declare runtime_id its primary key.
 */
public final class RegistryWrites {

    private static final McpServerRuntimes RUNTIMES = RegistryFields.TABLE;
    /**
     * How many expired rows one DELETE names: well under SQLite's bound on parameters (999 before
     * 3.32, the lower of the two engines'), and few statements even when a registry of 10,000 stale
     * rows is pruned at once.
     */
    public static final int PRUNE_CHUNK = 500;
    /**
     * The SQLSTATE of a registration that finds its runtime_id on two rows (cardinality violation):
     * PostgreSQL's adapter reads it as an I/O error, not as an unanswered connection; SQLite's ignores it.
     */
    private static final String CARDINALITY_VIOLATION = "21000";

    private RegistryWrites() {
    }

    /**
     * Stores {@code row}, first dropping rows old on both timestamps before {@code pruneBefore}; the row
     * as read back, or null when none holds its runtime_id.
     *
     * @throws SQLException when two rows hold its runtime_id (a table without a primary key): the
     *     adapter rolls back, so nothing is changed
     */
    public static RegistryRow register(DSLContext ctx, RegistryEngine engine, RegistryRow row,
            Optional<Instant> pruneBefore) throws SQLException {
        Set<String> names = engine.columns(ctx);
        List<RegistryColumn> present = RegistryFields.present(names);
        dropOthersOnThePid(ctx, row, names);
        pruneBefore.ifPresent(cutoff -> pruneExpired(ctx, row.runtimeId(), cutoff));
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        for (RegistryColumn column : present) {
            // Left out where the table lacks the column; an INTEGER column's value is a Long.
            values.put(RegistryFields.of(column), column == RegistryColumn.LAST_HEARTBEAT_AT
                    ? engine.heartbeat(row.lastHeartbeatAt()) : column.valueOf(row));
        }
        if (ctx.update(RUNTIMES).set(values).where(RUNTIMES.RUNTIME_ID.eq(row.runtimeId())).execute() == 0) {
            ctx.insertInto(RUNTIMES).set(values).execute();
        }
        return readBack(ctx, engine, present, row.runtimeId());
    }

    /** Records a heartbeat at {@code at} (or at the database's now); false when no row holds {@code runtimeId}. */
    public static boolean heartbeat(DSLContext ctx, RegistryEngine engine, String runtimeId, Instant at) {
        return ctx.update(RUNTIMES).set(RUNTIMES.LAST_HEARTBEAT_AT, engine.heartbeat(Timestamps.format(at)))
                .where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).execute() > 0;
    }

    /** Marks the row stopped at {@code at}, the server's own clock; false when no row holds {@code runtimeId}. */
    public static boolean markStopped(DSLContext ctx, String runtimeId, Instant at) {
        return ctx.update(RUNTIMES).set(RUNTIMES.STATUS, RegistrationStatus.STOPPED.code())
                .set(RUNTIMES.STOPPED_AT, Timestamps.format(at))
                .where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).execute() > 0;
    }

    /**
     * The pid now names this server: any other row on it from this pid namespace (or from before
     * namespaces were recorded) describes a process that is gone. A row on the same pid from another
     * namespace may be a live server there, and must stay visible; so must another host's row in a
     * shared registry, where the same pid names another process. jOOQ qualifies every column by the
     * table, so a table lacking one is an error ("no such column"), never a comparison with its name.
     */
    private static void dropOthersOnThePid(DSLContext ctx, RegistryRow row, Set<String> names) {
        Condition samePid = RUNTIMES.PID.eq(row.pid()).and(RUNTIMES.RUNTIME_ID.isDistinctFrom(row.runtimeId()));
        if (names.contains(RegistryColumn.PID_NAMESPACE.sqlName()) && row.pidNamespace() != null) {
            samePid = samePid.and(RUNTIMES.PID_NAMESPACE.isNull().or(RUNTIMES.PID_NAMESPACE.eq(row.pidNamespace())));
        }
        if (names.contains(RegistryColumn.HOST_ID.sqlName()) && row.hostId() != null) {
            samePid = samePid.and(RUNTIMES.HOST_ID.isNull().or(RUNTIMES.HOST_ID.eq(row.hostId())));
        }
        ctx.deleteFrom(RUNTIMES).where(samePid).execute();
    }

    /**
     * The one row on {@code runtimeId}, null when there is none; two are a table no registration can
     * trust.
     */
    private static RegistryRow readBack(DSLContext ctx, RegistryEngine engine, List<RegistryColumn> present,
            String runtimeId) throws SQLException {
        // The readers' own select: a registration succeeds only when an assessment will read its row whole.
        RegistrySelect select = RegistrySelect.reading(engine, present);
        Result<Record> stored = select.from(ctx).where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).limit(2).fetch();
        if (stored.size() > 1) {
            // Plain SQLException: the adapter words it, naming the registry; nothing is committed.
            throw new SQLException("more than one row holds runtime_id " + runtimeId + " (" + RUNTIMES.getName()
                    + " has no primary key; another tool made it); nothing was changed", CARDINALITY_VIOLATION);
        }
        return stored.isEmpty() ? null : select.toRow(stored.get(0));
    }

    /**
     * Deletes rows old on both timestamps. Other writers use other timestamp formats, so instants are
     * compared after parsing, never as text; a row whose timestamps cannot be parsed is kept (it shows
     * as malformed, which an operator should see).
     */
    private static void pruneExpired(DSLContext ctx, String keepRuntimeId, Instant cutoff) {
        List<String> expired = new ArrayList<>();
        for (Record3<String, String, String> candidate : ctx
                .select(RUNTIMES.RUNTIME_ID, RUNTIMES.REGISTERED_AT, RUNTIMES.LAST_HEARTBEAT_AT)
                .from(RUNTIMES).where(RUNTIMES.RUNTIME_ID.isDistinctFrom(keepRuntimeId)).fetch()) {
            if (candidate.value1() != null && before(candidate.value2(), cutoff)
                    && before(candidate.value3(), cutoff)) {
                expired.add(candidate.value1());
            }
        }
        for (int from = 0; from < expired.size(); from += PRUNE_CHUNK) {
            List<String> chunk = expired.subList(from, Math.min(expired.size(), from + PRUNE_CHUNK));
            ctx.deleteFrom(RUNTIMES).where(RUNTIMES.RUNTIME_ID.in(chunk)).execute();
        }
    }

    private static boolean before(String timestamp, Instant cutoff) {
        return Timestamps.parse(timestamp).map(instant -> instant.isBefore(cutoff)).orElse(false);
    }
}
