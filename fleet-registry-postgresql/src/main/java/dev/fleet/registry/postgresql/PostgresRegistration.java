package dev.fleet.registry.postgresql;

import static dev.fleet.registry.schema.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
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
import org.jooq.Record3;
import org.jooq.impl.DSL;

/**
 * What a registration does inside its transaction on PostgreSQL, by column name: replace the rows on
 * its pid from its own pid namespace and host (a pid means one process there only), optional
 * retention, update-or-insert, and the stored row read back. The same rules as the SQLite adapter's
 * (the contract suite runs against both), with the heartbeat taken from the database's clock.
 */
final class PostgresRegistration {

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;
    /** The database's now, in the contract's timestamp format ({@code 2026-07-28T02:00:00.250Z}). */
    static final Field<String> DATABASE_NOW = DSL.field(
            "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')", String.class);

    private PostgresRegistration() {
    }

    static RegistryRow store(DSLContext ctx, RegistryRow row, Optional<Instant> pruneBefore) throws Exception {
        Set<String> present = PostgresRows.columnsOf(ctx);
        String runtimeId = row.runtimeId();
        Condition samePid = RUNTIMES.PID.eq(row.pid()).and(RUNTIMES.RUNTIME_ID.ne(runtimeId));
        if (row.pidNamespace() != null) {
            samePid = samePid.and(RUNTIMES.PID_NAMESPACE.isNull().or(RUNTIMES.PID_NAMESPACE.eq(row.pidNamespace())));
        }
        if (row.hostId() != null) {
            samePid = samePid.and(RUNTIMES.HOST_ID.isNull().or(RUNTIMES.HOST_ID.eq(row.hostId())));
        }
        ctx.deleteFrom(RUNTIMES).where(samePid).execute();
        pruneBefore.ifPresent(cutoff -> pruneExpired(ctx, runtimeId, cutoff));
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        for (RegistryColumn column : RegistryColumn.ALL) {
            if (present.contains(column.sqlName())) {
                values.put(field(column), column == RegistryColumn.LAST_HEARTBEAT_AT
                        ? DATABASE_NOW : column.valueOf(row));
            }
        }
        if (ctx.update(RUNTIMES).set(values).where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).execute() == 0) {
            ctx.insertInto(RUNTIMES).set(values).execute();
        }
        return PostgresRows.rowById(ctx, present, runtimeId);
    }

    /** Rows old on both timestamps; instants compared parsed (other writers use other formats), unparseable ones kept. */
    private static void pruneExpired(DSLContext ctx, String keepRuntimeId, Instant cutoff) {
        List<String> expired = new ArrayList<>();
        for (Record3<String, String, String> candidate : ctx
                .select(RUNTIMES.RUNTIME_ID, RUNTIMES.REGISTERED_AT, RUNTIMES.LAST_HEARTBEAT_AT)
                .from(RUNTIMES).where(RUNTIMES.RUNTIME_ID.ne(keepRuntimeId)).fetch()) {
            if (before(candidate.value2(), cutoff) && before(candidate.value3(), cutoff)) {
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

    private static Field<?> field(RegistryColumn column) {
        return RegistryFields.of(column);
    }
}
