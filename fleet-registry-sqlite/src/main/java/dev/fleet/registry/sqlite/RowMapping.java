package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.jooq.tables.McpServerRuntimes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectConditionStep;
import org.jooq.impl.SQLDataType;

/**
 * Column values to and from the domain's row, as-is (interpretation is the domain's job), always by
 * column name: the table may hold its columns in any order, columns of other tools, or lack this
 * project's own (then read as NULL, and left out when writing).
 */
final class RowMapping {

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;
    /** The pid as SQLite stores it, so a pid that is not a whole number is seen as such. */
    private static final Field<String> PID_AS_TEXT = RUNTIMES.PID.cast(SQLDataType.VARCHAR).as("pid_as_text");

    private RowMapping() {
    }

    /** Selects, by name, every column of ours the table has, for the rows {@code filter} names. */
    static SelectConditionStep<Record> selectRows(DSLContext ctx, RegistryColumns columns, Condition filter) {
        return ctx.select(columns.present()).select(PID_AS_TEXT).from(RUNTIMES).where(filter);
    }

    /**
     * The row as read, with the pid only when SQLite holds it as a whole number: jOOQ would read a
     * REAL {@code 12.7} another tool wrote as pid 12, a live-looking pid the row never named.
     */
    static RegistryRow toRow(Record record, RegistryColumns columns) {
        Long pid = RowQuery.wholeNumber(record.get(PID_AS_TEXT));
        return new RegistryRow(
                text(record, columns, RUNTIMES.RUNTIME_ID),
                text(record, columns, RUNTIMES.NAMESPACE),
                text(record, columns, RUNTIMES.PROFILE),
                text(record, columns, RUNTIMES.ROLE),
                text(record, columns, RUNTIMES.REMOTE),
                text(record, columns, RUNTIMES.ORG),
                text(record, columns, RUNTIMES.REPO),
                text(record, columns, RUNTIMES.REPOSITORY_ROOT),
                pid,
                text(record, columns, RUNTIMES.COHORT_ID),
                text(record, columns, RUNTIMES.COHORT_SOURCE),
                text(record, columns, RUNTIMES.CLIENT_PROVENANCE),
                text(record, columns, RUNTIMES.BOOT_ID),
                text(record, columns, RUNTIMES.PROCESS_STARTED_AT),
                text(record, columns, RUNTIMES.STARTUP_HEAD),
                text(record, columns, RUNTIMES.TRANSPORT),
                text(record, columns, RUNTIMES.STATUS),
                text(record, columns, RUNTIMES.REGISTERED_AT),
                text(record, columns, RUNTIMES.LAST_HEARTBEAT_AT),
                text(record, columns, RUNTIMES.STOPPED_AT),
                text(record, columns, RUNTIMES.PID_NAMESPACE),
                text(record, columns, RUNTIMES.ENDPOINT));
    }

    /** The row's values for the columns the table has, by name; the others are left out. */
    static Map<Field<?>, Object> values(RegistryRow row, RegistryColumns columns) {
        Map<Field<?>, Object> all = new LinkedHashMap<>();
        all.put(RUNTIMES.RUNTIME_ID, row.runtimeId());
        all.put(RUNTIMES.NAMESPACE, row.namespace());
        all.put(RUNTIMES.PROFILE, row.profile());
        all.put(RUNTIMES.ROLE, row.role());
        all.put(RUNTIMES.REMOTE, row.remote());
        all.put(RUNTIMES.ORG, row.org());
        all.put(RUNTIMES.REPO, row.repo());
        all.put(RUNTIMES.REPOSITORY_ROOT, row.repositoryRoot());
        all.put(RUNTIMES.PID, row.pid());
        all.put(RUNTIMES.COHORT_ID, row.cohortId());
        all.put(RUNTIMES.COHORT_SOURCE, row.cohortSource());
        all.put(RUNTIMES.CLIENT_PROVENANCE, row.clientProvenance());
        all.put(RUNTIMES.BOOT_ID, row.bootId());
        all.put(RUNTIMES.PROCESS_STARTED_AT, row.processStartedAt());
        all.put(RUNTIMES.STARTUP_HEAD, row.startupHead());
        all.put(RUNTIMES.TRANSPORT, row.transport());
        all.put(RUNTIMES.STATUS, row.status());
        all.put(RUNTIMES.REGISTERED_AT, row.registeredAt());
        all.put(RUNTIMES.LAST_HEARTBEAT_AT, row.lastHeartbeatAt());
        all.put(RUNTIMES.STOPPED_AT, row.stoppedAt());
        all.put(RUNTIMES.PID_NAMESPACE, row.pidNamespace());
        all.put(RUNTIMES.ENDPOINT, row.endpoint());
        all.keySet().removeIf(column -> !columns.has(column));
        return all;
    }

    private static String text(Record record, RegistryColumns columns, Field<String> column) {
        return columns.has(column) ? record.get(column) : null;
    }
}
