package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.impl.SQLDataType;

/**
 * What a registration does inside its transaction: replace-on-pid, optional retention, upsert and
 * read-back, by column name, through jOOQ's generated table. An update-then-insert rather than an
 * upsert: a table another tool made need not declare runtime_id its primary key.
 */
final class RegistrationTransaction {

    private static final McpServerRuntimes RUNTIMES = RegistryFields.TABLE;
    /**
     * How many expired rows one DELETE names: well under SQLite's bound on parameters (999 before
     * 3.32), and few statements even when a registry of 10,000 stale rows is pruned at once.
     */
    static final int PRUNE_CHUNK = 500;

    private RegistrationTransaction() {
    }

    /** Stores {@code row}, first dropping rows old on both timestamps before {@code pruneBefore}; the row read back. */
    static RegistryRow store(Connection connection, RegistryRow row, Optional<Instant> pruneBefore)
            throws SQLException {
        DSLContext ctx = SqliteJooq.using(connection);
        TableColumns columns = TableColumns.of(connection);
        dropOthersOnThePid(ctx, row, columns);
        pruneBefore.ifPresent(cutoff -> pruneExpired(ctx, row.runtimeId(), cutoff));
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        for (RegistryColumn column : columns.present()) {
            // Left out where the table lacks the column; an INTEGER column's value is a Long.
            values.put(RegistryFields.of(column), column.valueOf(row));
        }
        if (ctx.update(RUNTIMES).set(values).where(RUNTIMES.RUNTIME_ID.eq(row.runtimeId())).execute() == 0) {
            ctx.insertInto(RUNTIMES).set(values).execute();
        }
        return readBack(ctx, columns, row.runtimeId());
    }

    /**
     * The pid now names this server: any other row on it from this pid namespace (or from before
     * namespaces were recorded) describes a process that is gone. A row on the same pid from another
     * namespace may be a live server there, and must stay visible; so must another host's row in a
     * shared registry, where the same pid names another process. jOOQ qualifies every column by the
     * table, so a table lacking one is an error ("no such column"), never a comparison with its name.
     */
    private static void dropOthersOnThePid(DSLContext ctx, RegistryRow row, TableColumns columns) {
        Condition samePid = RUNTIMES.PID.eq(row.pid()).and(RUNTIMES.RUNTIME_ID.isDistinctFrom(row.runtimeId()));
        if (columns.has(RegistryColumn.PID_NAMESPACE) && row.pidNamespace() != null) {
            samePid = samePid.and(RUNTIMES.PID_NAMESPACE.isNull().or(RUNTIMES.PID_NAMESPACE.eq(row.pidNamespace())));
        }
        if (columns.has(RegistryColumn.HOST_ID) && row.hostId() != null) {
            samePid = samePid.and(RUNTIMES.HOST_ID.isNull().or(RUNTIMES.HOST_ID.eq(row.hostId())));
        }
        ctx.deleteFrom(RUNTIMES).where(samePid).execute();
    }

    /**
     * The one row on {@code runtimeId}, null when there is none; two are a table no registration can
     * trust. The pid as SQLite stores it, as text, so a pid that is not a whole number is seen as such;
     * every other column as text (the writer reads back what it wrote).
     */
    private static RegistryRow readBack(DSLContext ctx, TableColumns columns, String runtimeId)
            throws SQLException {
        List<RegistryColumn> present = columns.present();
        List<Field<String>> fields = present.stream().map(column -> column == RegistryColumn.PID
                ? RUNTIMES.PID.cast(SQLDataType.VARCHAR) : RegistryFields.asText(column)).toList();
        Result<Record> stored = ctx.select(fields).from(RUNTIMES).where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).limit(2)
                .fetch();
        if (stored.size() > 1) {
            // Plain SQLException: the writer words it, naming the file; nothing is committed.
            throw new SQLException("more than one row holds runtime_id " + runtimeId + " ("
                    + SqliteRows.TABLE + " has no primary key; another tool made it); nothing was changed");
        }
        return stored.isEmpty() ? null : RegistryFields.toRow(stored.get(0), present);
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
