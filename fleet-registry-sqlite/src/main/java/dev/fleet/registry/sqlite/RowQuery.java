package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import java.lang.reflect.RecordComponent;
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
 * <p>The column names are not written here: they are the components of {@link RegistryRow} (the
 * domain's "row exactly as stored"), in snake case and in their order, which RowQueryTest holds
 * equal to the jOOQ table generated from the changelog. Columns are selected by name, and only
 * those the table has: a foreign table may hold them in any order, add its own, or lack this
 * project's own (then read as NULL).
 */
final class RowQuery {

    /** Generated table name; RowQueryTest holds it equal to the jOOQ table's. */
    static final String TABLE = "mcp_server_runtimes";
    /** Every column, in the generated table's order. */
    static final List<String> COLUMNS = columnsOf(RegistryRow.class);
    /** This project's additions; RowQueryTest holds them equal to {@link RegistryColumns#OWN}. */
    static final Set<String> OWN = Set.of("process_started_at", "pid_namespace", "endpoint");

    private static final int PID = COLUMNS.indexOf("pid");

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

    /** The required columns (all but this project's own) that {@code present} lacks, in the table's order. */
    static List<String> missingRequired(Set<String> present) {
        return COLUMNS.stream().filter(column -> !OWN.contains(column) && !present.contains(column)).toList();
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
        int[] indexOf = new int[COLUMNS.size()];
        int selected = 0;
        for (int i = 0; i < COLUMNS.size(); i++) {
            if (present.contains(COLUMNS.get(i)) && i != PID) {
                sql.append(selected == 0 ? "" : ", ").append('"').append(COLUMNS.get(i)).append('"');
                indexOf[i] = ++selected;
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
            String[] text = new String[COLUMNS.size()];
            while (result.next()) {
                tally.row();
                for (int i = 0; i < text.length; i++) {
                    text[i] = indexOf[i] == 0 ? null : tally.text(result.getString(indexOf[i]));
                }
                long pid = result.getLong(pidColumn);
                rows.add(row(text, result.wasNull() ? null : pid));
            }
        }
        return rows;
    }

    /** In {@link RegistryRow}'s component order, which {@link #COLUMNS} is. */
    private static RegistryRow row(String[] v, Long pid) {
        return new RegistryRow(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], pid, v[9], v[10], v[11], v[12], v[13],
                v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21]);
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

    private static List<String> columnsOf(Class<? extends Record> row) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : row.getRecordComponents()) {
            names.add(snakeCase(component.getName()));
        }
        return List.copyOf(names);
    }

    private static String snakeCase(String camel) {
        StringBuilder snake = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                snake.append('_').append(Character.toLowerCase(c));
            } else {
                snake.append(c);
            }
        }
        return snake.toString();
    }
}
