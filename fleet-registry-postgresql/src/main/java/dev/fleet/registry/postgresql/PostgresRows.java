package dev.fleet.registry.postgresql;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RowOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Rows of {@code mcp_server_runtimes} on PostgreSQL, read by column name for both sides (queries
 * only): the reader's assessment and the writer's read-back. Columns follow {@link RegistryColumn},
 * whatever order the table holds them in; a column the table lacks reads as NULL.
 */
final class PostgresRows {

    static final String TABLE = "mcp_server_runtimes";

    private PostgresRows() {
    }

    /** The row with this runtime id as stored (the writer's read-back), or null. */
    static RegistryRow rowById(Connection connection, Set<String> present, String runtimeId) throws SQLException {
        List<RegistryRow> rows = select(connection, present, "runtime_id", runtimeId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** Every column of ours the table has, by name, for the rows whose {@code column} is {@code value} (or all). */
    static List<RegistryRow> select(Connection connection, Set<String> present, String column, String value)
            throws SQLException {
        List<RegistryColumn> read = RegistryColumn.ALL.stream().filter(c -> present.contains(c.sqlName())).toList();
        // Sorted in Java as SQLite's rows are (RowOrder): the same rows list in the same order on both engines.
        String sql = "SELECT " + read.stream().map(RegistryColumn::sqlName).collect(Collectors.joining(", "))
                + " FROM " + TABLE + (column == null ? "" : " WHERE " + column + " = ?");
        List<RegistryRow> rows = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setQueryTimeout((int) PostgresLocation.READ_TIMEOUT.toSeconds());
            if (column != null) {
                select.setString(1, value);
            }
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(rowOf(result, read));
                }
            }
        }
        return RowOrder.sorted(rows);
    }

    /** Columns by name; a pid that is not a whole number in range is read as none (the row is then malformed). */
    private static RegistryRow rowOf(ResultSet result, List<RegistryColumn> read) throws SQLException {
        String[] text = new String[RegistryColumn.ALL.size()];
        Long pid = null;
        for (RegistryColumn column : read) {
            if (column == RegistryColumn.PID) {
                Object value = result.getObject(column.sqlName());
                pid = value instanceof Integer || value instanceof Long || value instanceof Short
                        ? ((Number) value).longValue() : null;
            } else {
                text[column.ordinal()] = result.getString(column.sqlName());
            }
        }
        return RegistryColumn.toRow(text, pid);
    }

    /**
     * The table's columns in the connection's current schema, lower-cased as SQLite compares them. From
     * the catalog, which shows every role every table: {@code information_schema} shows a role only the
     * columns it may use, so a role without SELECT would find no table there and read {@code missing},
     * where reading it is {@code access_denied} (issue 45).
     */
    static Set<String> columnsOf(Connection connection) throws SQLException {
        Set<String> names = new LinkedHashSet<>();
        try (PreparedStatement columns = connection.prepareStatement("SELECT lower(a.attname) FROM "
                + "pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                + "AND c.relname = ? AND c.relkind IN ('r', 'p', 'v', 'f') AND a.attnum > 0 AND NOT a.attisdropped "
                + "ORDER BY a.attnum")) {
            columns.setString(1, TABLE);
            try (ResultSet result = columns.executeQuery()) {
                while (result.next()) {
                    names.add(result.getString(1));
                }
            }
        }
        return names;
    }

    /** The driver's message, first line only: never a stack trace, never a password (the URL holds none). */
    static String oneLine(SQLException e) {
        String message = Objects.toString(e.getMessage(), e.getClass().getSimpleName());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
