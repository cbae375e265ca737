package dev.fleet.registry.postgresql;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import dev.fleet.registry.schema.RowOrder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Rows of {@code mcp_server_runtimes} on PostgreSQL, through jOOQ's generated table, read by column
 * name for both sides (queries only): the reader's assessment and the writer's read-back. Columns
 * follow {@link RegistryColumn}, whatever order the table holds them in; a column the table lacks is
 * not selected and reads as NULL.
 */
final class PostgresRows {

    static final String TABLE = RegistryFields.TABLE.getName();

    /** The pid, as text, only where the table stores it as a whole number (a foreign table's text pid is none). */
    private static final Field<String> PID = DSL.when(
            DSL.field("pg_typeof({0})::text", String.class, RegistryFields.TABLE.PID).in("smallint", "integer", "bigint"),
            RegistryFields.TABLE.PID.cast(SQLDataType.VARCHAR));

    private PostgresRows() {
    }

    /** The row with this runtime id as stored (the writer's read-back), or null. */
    static RegistryRow rowById(DSLContext ctx, Set<String> present, String runtimeId) {
        List<RegistryRow> rows = select(ctx, present, RegistryFields.TABLE.RUNTIME_ID.eq(runtimeId));
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Every column of ours the table has, by name, for the rows {@code where} holds. */
    static List<RegistryRow> select(DSLContext ctx, Set<String> present, Condition where) {
        List<RegistryColumn> read = RegistryFields.present(present);
        List<Field<String>> fields = read.stream()
                .map(column -> column == RegistryColumn.PID ? PID : RegistryFields.asText(column)).toList();
        List<RegistryRow> rows = new ArrayList<>();
        for (Record record : ctx.select(fields).from(RegistryFields.TABLE).where(where)
                .queryTimeout((int) PostgresLocation.READ_TIMEOUT.toSeconds()).fetch()) {
            rows.add(RegistryFields.toRow(record, read));
        }
        // Sorted in Java as SQLite's rows are (RowOrder): the same rows list in the same order on both engines.
        return RowOrder.sorted(rows);
    }

    /**
     * The table's columns in the connection's current schema, lower-cased as SQLite compares them. From
     * the catalog, which shows every role every table: {@code information_schema} shows a role only the
     * columns it may use, so a role without SELECT would find no table there and read {@code missing},
     * where reading it is {@code access_denied} (issue 45).
     */
    static Set<String> columnsOf(DSLContext ctx) {
        return new LinkedHashSet<>(ctx.resultQuery("SELECT lower(a.attname) FROM pg_catalog.pg_attribute a "
                + "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                + "AND c.relname = {0} AND c.relkind IN ('r', 'p', 'v', 'f') AND a.attnum > 0 AND NOT a.attisdropped "
                + "ORDER BY a.attnum", DSL.val(TABLE)).fetch(0, String.class));
    }

    /** {@link #columnsOf(DSLContext)} on a connection the caller owns. */
    static Set<String> columnsOf(Connection connection) {
        return columnsOf(PostgresJooq.using(connection));
    }

    /** The driver's message, first line only: never a stack trace, never a password (the URL holds none). */
    static String oneLine(SQLException e) {
        String message = Objects.toString(e.getMessage(), e.getClass().getSimpleName());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
