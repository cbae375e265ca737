package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The read side's query, on plain JDBC: an assessment reads every row, and through jOOQ that cost
 * more than the whole rest of a cold {@code fleet assess} (jOOQ's start-up, then a record and a
 * field lookup per value: about half a second for 10,000 rows). Writes, the migration and code
 * generation keep jOOQ.
 *
 * <p>The columns are {@link RegistryColumn}'s. They are selected by name, and only those the table
 * has: a foreign table may hold them in any order, add its own, or lack this project's own (then
 * read as NULL). Each value lands at its column's ordinal, so a row is built without a lookup.
 */
final class RowQuery {

    /** Generated table name; RowQueryTest holds it equal to the jOOQ table's. */
    static final String TABLE = "mcp_server_runtimes";

    private static final RegistryColumn[] COLUMNS = RegistryColumn.values();

    private RowQuery() {
    }

    /** The columns the file's table has (lower case), or none when there is no such table. */
    static Set<String> columnsOf(Connection connection) throws SQLException {
        Set<String> names = new HashSet<>();
        // PRAGMA takes no bind values; the table name is a constant, never input.
        try (Statement statement = connection.createStatement();
                ResultSet columns = statement.executeQuery("PRAGMA table_info(" + TABLE + ")")) {
            while (columns.next()) {
                names.add(columns.getString("name").toLowerCase(Locale.ROOT)); // case-insensitive in SQLite
            }
        }
        return names;
    }

    /** What an operator is told about a table that lacks required columns. */
    static String describeMissing(List<String> missing) {
        return TABLE + " lacks column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing);
    }

    /**
     * Every row, in the table's own order, within {@link ReadBounds}. No WHERE and no ORDER BY: the
     * caller filters and sorts in Java, so a corrupted index cannot hide rows from a filtered listing
     * that an assessment sees, and an endless view is never sorted through temporary files.
     */
    static List<RegistryRow> select(Connection connection, Set<String> present)
            throws SQLException, ReadBounds.ReadBoundExceeded {
        StringBuilder sql = new StringBuilder("SELECT ");
        int[] indexOf = new int[COLUMNS.length];
        int selected = 0;
        for (RegistryColumn column : COLUMNS) {
            if (present.contains(column.sqlName()) && column != RegistryColumn.PID) {
                sql.append(selected == 0 ? "" : ", ").append(selection(column));
                indexOf[column.ordinal()] = ++selected;
            }
        }
        // The pid only when SQLite stores it as an INTEGER: a REAL 12.7 would read as pid 12, and the
        // text '015494' or a BLOB of digits as a live-looking pid, none of which the row really named.
        sql.append(selected == 0 ? "" : ", ").append("CASE typeof(\"pid\") WHEN 'integer' THEN \"pid\" END FROM ")
                .append(TABLE);
        int pidColumn = selected + 1;
        List<RegistryRow> rows = new ArrayList<>();
        ReadBounds.Tally tally = new ReadBounds.Tally();
        try (Statement query = connection.createStatement(); ResultSet result = query.executeQuery(sql.toString())) {
            String[] text = new String[COLUMNS.length];
            while (result.next()) {
                tally.row();
                for (int i = 0; i < text.length; i++) {
                    text[i] = indexOf[i] == 0 ? null : tally.text(result.getString(indexOf[i]));
                }
                long pid = result.getLong(pidColumn);
                rows.add(RegistryColumn.toRow(text, result.wasNull() ? null : pid));
            }
        }
        return rows;
    }

    /** A column as selected: an INTEGER column only when SQLite stores a whole number in it (read as its digits). */
    private static String selection(RegistryColumn column) {
        String quoted = '"' + column.sqlName() + '"';
        return column.isInteger() ? "CASE typeof(" + quoted + ") WHEN 'integer' THEN " + quoted + " END" : quoted;
    }

    /** {@code -?\d{1,18}} as a Long, else null (no regex: this runs once per row). */
    static Long wholeNumber(String text) {
        if (text == null) {
            return null;
        }
        int start = text.startsWith("-") ? 1 : 0;
        int digits = text.length() - start;
        if (digits < 1 || digits > 18) {
            return null;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return Long.parseLong(text);
    }
}
