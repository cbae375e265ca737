package dev.fleet.registry.sqlite;

import static dev.fleet.registry.schema.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;

/**
 * What a registration does inside its transaction: replace-on-pid, optional retention, upsert and
 * read-back, by column name. An update-then-insert rather than an upsert: a table another tool made
 * need not declare runtime_id its primary key.
 */
final class RegistrationTransaction {

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;

    private RegistrationTransaction() {
    }

    /** Stores {@code row}, first dropping rows old on both timestamps before {@code pruneBefore}; the row read back. */
    static RegistryRow store(DSLContext ctx, RegistryRow row, Optional<Instant> pruneBefore) {
        String runtimeId = row.runtimeId();
        TableColumns columns = TableColumns.of(ctx);
        // The pid now names this server: any other row on it from this pid namespace (or from
        // before namespaces were recorded) describes a process that is gone. A row on the same
        // pid from another namespace may be a live server there, and must stay visible.
        Condition samePid = RUNTIMES.PID.eq(row.pid()).and(RUNTIMES.RUNTIME_ID.isDistinctFrom(runtimeId));
        if (columns.has(RegistryColumn.PID_NAMESPACE) && row.pidNamespace() != null) {
            samePid = samePid.and(RUNTIMES.PID_NAMESPACE.isNull().or(RUNTIMES.PID_NAMESPACE.eq(row.pidNamespace())));
        }
        // A shared registry holds other hosts' rows: the same pid there names another process.
        if (columns.has(RegistryColumn.HOST_ID) && row.hostId() != null) {
            samePid = samePid.and(RUNTIMES.HOST_ID.isNull().or(RUNTIMES.HOST_ID.eq(row.hostId())));
        }
        ctx.deleteFrom(RUNTIMES).where(samePid).execute();
        pruneBefore.ifPresent(cutoff -> pruneExpired(ctx, runtimeId, cutoff));
        Map<Field<?>, Object> values = RowMapping.values(row, columns);
        if (ctx.update(RUNTIMES).set(values).where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).execute() == 0) {
            ctx.insertInto(RUNTIMES).set(values).execute();
        }
        return RowMapping.selectRows(ctx, columns, RUNTIMES.RUNTIME_ID.eq(runtimeId))
                .fetchOne(record -> RowMapping.toRow(record, columns));
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
                .from(RUNTIMES)
                .where(RUNTIMES.RUNTIME_ID.isDistinctFrom(keepRuntimeId))
                .fetch()) {
            if (candidate.value1() != null && before(candidate.value2(), cutoff)
                    && before(candidate.value3(), cutoff)) {
                expired.add(candidate.value1());
            }
        }
        if (!expired.isEmpty()) {
            ctx.deleteFrom(RUNTIMES).where(RUNTIMES.RUNTIME_ID.in(expired)).execute();
        }
    }

    private static boolean before(String timestamp, Instant cutoff) {
        return Timestamps.parse(timestamp).map(instant -> instant.isBefore(cutoff)).orElse(false);
    }
}
