package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.sqlite.SQLiteErrorCode;

/**
 * The read side's query, on plain JDBC: an assessment reads every row, and through jOOQ that cost
 * more than the whole rest of a cold {@code fleet assess} (jOOQ's start-up, then a record and a
 * field lookup per value: about half a second for 10,000 rows). The writer went the same way for the
 * same reason ({@link RowMapping}); jOOQ's generated table remains what the names are checked against.
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
     *
     * <p>A UTF-8 registry (every one this project makes) is read a row at a time ({@link PackedRow});
     * a file in another encoding, or one whose packed row would be longer than one value may be
     * ({@link ReadBounds#VALUE_BYTES}: SQLite refuses to build it), a column at a time, as before.
     */
    static List<RegistryRow> select(Connection connection, Set<String> present)
            throws SQLException, ReadBounds.ReadRefused {
        List<RegistryColumn> selected = new ArrayList<>();
        for (RegistryColumn column : COLUMNS) {
            // The pid last, and always: a row without one is malformed, never skipped.
            if (present.contains(column.sqlName()) && column != RegistryColumn.PID) {
                selected.add(column);
            }
        }
        selected.add(RegistryColumn.PID);
        if (isUtf8(connection)) {
            try {
                return PackedRow.select(connection, selected);
            } catch (SQLException e) {
                if (SqliteErrors.primaryCode(e) != SQLiteErrorCode.SQLITE_TOOBIG.code) {
                    throw e;
                }
                // Values that together pass the cap, or one over it: the column read says which.
            }
        }
        return byColumn(connection, selected);
    }

    /**
     * One value per column and row, through the driver's {@code getString}: SQLite converts each to
     * UTF-8. The read of a file in another encoding, and the reference {@link PackedRow} is held to.
     */
    static List<RegistryRow> byColumn(Connection connection, List<RegistryColumn> selected)
            throws SQLException, ReadBounds.ReadRefused {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < selected.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(selection(selected.get(i)));
        }
        sql.append(" FROM ").append(TABLE);
        List<RegistryRow> rows = new ArrayList<>();
        ReadBounds.Tally tally = new ReadBounds.Tally();
        try (Statement query = connection.createStatement(); ResultSet result = query.executeQuery(sql.toString())) {
            String[] text = new String[COLUMNS.length];
            while (result.next()) {
                tally.row();
                for (int i = 0; i < selected.size(); i++) {
                    text[selected.get(i).ordinal()] = tally.text(result.getString(i + 1));
                }
                rows.add(toRow(text));
            }
        }
        return rows;
    }

    /**
     * The row whose values are {@code text} by column ordinal (null where the table lacks the column),
     * every INTEGER column as its digits, or null unless SQLite stored a whole number ({@link #selection}).
     */
    static RegistryRow toRow(String[] text) {
        return RegistryColumn.toRow(text, RegistryColumn.wholeNumber(text[RegistryColumn.PID.ordinal()]));
    }

    /** How SQLite stores the file's text: only a UTF-8 file's bytes can be handed over unconverted. */
    private static boolean isUtf8(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet encoding = statement.executeQuery("PRAGMA encoding")) {
            return encoding.next() && "UTF-8".equalsIgnoreCase(encoding.getString(1));
        }
    }

    /** A column as selected: an INTEGER column only when SQLite stores a whole number in it (read as its digits). */
    private static String selection(RegistryColumn column) {
        return asRead(column, '"' + column.sqlName() + '"');
    }

    /**
     * The SQL that reads {@code value}, the column's value: an INTEGER column only when SQLite stores a
     * whole number in it (a REAL 12.7 would read as pid 12, and the text '015494' or a BLOB of digits as
     * a live-looking pid, none of which the row really named), every other column as it is.
     */
    static String asRead(RegistryColumn column, String value) {
        return column.isInteger() ? "CASE typeof(" + value + ") WHEN 'integer' THEN " + value + " END" : value;
    }
}
