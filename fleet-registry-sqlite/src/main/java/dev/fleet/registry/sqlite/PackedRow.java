package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A UTF-8 registry read one value per row: SQLite packs a row's columns into one string, and Java
 * cuts it apart. sqlite-jdbc hands every text value over as a new direct {@code ByteBuffer}, made by
 * a call from native code back into Java, and a cold JVM paid that for each of the 25 columns of
 * every row (10,000 rows: 275 ms read by column, 104-157 ms packed; docs/PERFORMANCE.md).
 *
 * <p>A packed row is a header, then the values back to back: the header gives each column's length
 * in bytes, {@code -1} for NULL, separated by {@code ,} and ended by {@code ;}. Each text is what
 * SQLite's {@code concat} makes of the value, which is what {@code getString} gets from it too (both
 * render a number with SQLite's one stringification and take a BLOB's bytes as they are), and it is
 * decoded from UTF-8 by itself, as {@code getString} decodes each value. The lengths count bytes, so
 * no value can pass for a delimiter, whatever it holds. One {@code concat} builds the row in one
 * pass, where a chain of {@code ||} copied the growing row once per operator (10,000 rows: 42 ms of
 * SQLite's own time, 31 ms this way; docs/PERFORMANCE.md). The connection's cap on one value
 * ({@link ReadBounds#VALUE_BYTES}) is left as it is, so SQLite builds nothing here that the column
 * read would not build; a row that would pass it as a whole is read column by column
 * ({@link RowQuery#select}), where a value over it is refused as before.
 */
final class PackedRow {

    /** Digits enough for any length up to {@link ReadBounds#VALUE_BYTES}, the longest a packed row can be. */
    private static final int MAX_LENGTH_DIGITS = 9;

    private PackedRow() {
    }

    /**
     * Every row of the table, {@code selected} columns packed (an INTEGER column as {@link RowQuery#asRead}).
     * The connection's cap on one value ({@link ReadBounds#VALUE_BYTES}) holds for the packed row too:
     * SQLITE_TOOBIG for a row that would pass it, which the caller reads column by column instead.
     */
    static List<RegistryRow> select(Connection connection, List<RegistryColumn> selected)
            throws SQLException, ReadBounds.ReadRefused {
        List<RegistryRow> rows = new ArrayList<>();
        ReadBounds.Tally tally = new ReadBounds.Tally();
        try (Statement query = connection.createStatement();
                ResultSet result = query.executeQuery(sql(selected))) {
            String[] text = new String[RegistryColumn.ALL.size()];
            Cutter cutter = new Cutter(selected);
            while (result.next()) {
                tally.row();
                cutter.cut(result.getBytes(1), text, tally);
                rows.add(RowQuery.toRow(text));
            }
        }
        return rows;
    }

    /**
     * {@code SELECT concat(concat_ws(',', <lengths>), ';', <values>) FROM (SELECT <columns> FROM
     * mcp_server_runtimes LIMIT -1 OFFSET 0)}. A NULL value has no {@code octet_length}, which
     * {@code coalesce} makes {@code -1}, and adds nothing to the values. The subquery is read once per
     * row, as the column-by-column read reads each value once: flattened into the outer query (which
     * its OFFSET forbids), a column of a view would be computed once for its length and again for its
     * text, and a view of values that differ at each look would then pack a length that is not its text's.
     */
    static String sql(List<RegistryColumn> selected) {
        StringBuilder columns = new StringBuilder();
        StringBuilder lengths = new StringBuilder();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < selected.size(); i++) {
            RegistryColumn column = selected.get(i);
            String read = "c" + i;
            // An INTEGER column's test of its type is made here, on the value read once, not in the subquery.
            String value = RowQuery.asRead(column, read);
            columns.append(i == 0 ? "" : ", ").append('"').append(column.sqlName()).append("\" AS ").append(read);
            lengths.append(", coalesce(octet_length(").append(value).append("), -1)");
            values.append(", ").append(value);
        }
        return "SELECT concat(concat_ws(','" + lengths + "), ';'" + values + ") FROM (SELECT " + columns + " FROM "
                + RowQuery.TABLE + " LIMIT -1 OFFSET 0)";
    }

    /**
     * Cuts packed rows apart, one after another. A value whose bytes are the previous row's for the
     * same column (a registry repeats its binding, roster names, boot id and revision in row after
     * row) is that row's String again: no second decoding, and one String in memory, not thousands.
     */
    static final class Cutter {
        private final List<RegistryColumn> selected;
        /** The previous row, and where each of its selected columns' bytes start (-1 for NULL) and how many. */
        private byte[] previous = new byte[0];
        private final int[] starts;
        private final int[] previousLengths;
        /** This row's lengths, as its header gives them (-1 for NULL). */
        private final int[] lengths;

        Cutter(List<RegistryColumn> selected) {
            this.selected = selected;
            this.starts = new int[selected.size()];
            this.previousLengths = new int[selected.size()];
            this.lengths = new int[selected.size()];
            Arrays.fill(starts, -1);
        }

        /**
         * Cuts {@code row} into {@code text}, at each selected column's ordinal. {@code text} must be
         * the array the previous row was cut into: an unchanged value is left in it as it is.
         */
        void cut(byte[] row, String[] text, ReadBounds.Tally tally) throws ReadBounds.ReadRefused {
            int at = 0;
            for (int i = 0; i < selected.size(); i++) {
                if (i > 0) {
                    at = expect(row, at, ',');
                }
                int digits = at;
                if (at < row.length && row[at] == '-') {
                    at = expect(row, at + 1, '1');
                    lengths[i] = -1;
                    continue;
                }
                int length = 0;
                while (at < row.length && row[at] >= '0' && row[at] <= '9' && at - digits < MAX_LENGTH_DIGITS) {
                    length = length * 10 + (row[at++] - '0');
                }
                if (at == digits) {
                    throw notAsPacked();
                }
                lengths[i] = length;
            }
            at = expect(row, at, ';');
            for (int i = 0; i < selected.size(); i++) {
                int column = selected.get(i).ordinal();
                int length = lengths[i];
                if (length < 0) {
                    text[column] = null;
                    starts[i] = -1;
                    continue;
                }
                if (length > row.length - at) {
                    throw notAsPacked();
                }
                int start = starts[i];
                if (start < 0 || previousLengths[i] != length
                        || !Arrays.equals(row, at, at + length, previous, start, start + length)) {
                    text[column] = new String(row, at, length, StandardCharsets.UTF_8);
                }
                tally.text(text[column]);
                starts[i] = at;
                previousLengths[i] = length;
                at += length;
            }
            if (at != row.length) {
                throw notAsPacked();
            }
            previous = row;
        }

        /** The index after {@code mark}, which must be at {@code at}. */
        private static int expect(byte[] row, int at, char mark) throws ReadBounds.ReadRefused {
            if (at >= row.length || row[at] != mark) {
                throw notAsPacked();
            }
            return at + 1;
        }

        /**
         * A row that is not as the query packs it. The query reads each value once ({@link #sql}), so
         * this is a check that should never fail: were a value ever read twice and differ, the row is
         * refused rather than cut into other values.
         */
        private static ReadBounds.ReadRefused notAsPacked() {
            return new ReadBounds.ReadRefused("a row of " + RowQuery.TABLE + " changed while it was read (a view "
                    + "of values that differ at each look?): read refused");
        }
    }
}
