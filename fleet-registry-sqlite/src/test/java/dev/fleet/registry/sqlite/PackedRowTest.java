package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * The packed read ({@link PackedRow}) gives exactly the rows the column-by-column read gives, whatever
 * another writer stored: every storage class SQLite has, text no decoder likes, values that look
 * like the packing's own marks. The column-by-column read is the reference: it is what the driver's
 * {@code getString} makes of each value.
 */
class PackedRowTest {

    /** Values as SQL, for a table whose columns have no type, so each keeps its own storage class. */
    private static final List<String> STORED = List.of(
            "NULL", "''", "'n'", "'x'", "':'", "'12:34'", "'0:'", "'n:3'", "char(0)", "'a' || char(0) || 'b'",
            "'😀 é ☃ 中'", "X''", "X'FF80C3'", "X'F09F98'", "X'EDA0BD'", "CAST('15494' AS BLOB)", "12.7", "1e300",
            "-0.0", "0.1", "5e-324", "42", "-7", "9223372036854775807", "-9223372036854775808");

    @TempDir
    Path dir;

    @Test
    void everyStorageClassAndAwkwardTextReadsAsColumnByColumn() throws Exception {
        Path file = typelessTable("stored.sqlite3", "TABLE");
        try (Connection connection = RawSqlite.open(file)) {
            int i = 0;
            for (String value : STORED) {
                // Every text column holds the value; the pid one of the shapes a foreign writer may store.
                String pid = List.of("4242", "'015494'", "15494.0", "CAST('15494' AS BLOB)", "NULL", "-3").get(i % 6);
                connection.createStatement().execute("INSERT INTO " + RowQuery.TABLE + " VALUES ("
                        + RegistryColumn.ALL.stream().map(column -> column == RegistryColumn.PID ? pid : value)
                                .collect(Collectors.joining(", ")) + ")");
                i++;
            }
        }

        List<RegistryRow> packed = assertBothReadsAgree(file);

        assertEquals(STORED.size(), packed.size());
        assertTrue(packed.stream().anyMatch(row -> "😀 é ☃ 中".equals(row.namespace())), "UTF-8 text decoded");
        assertTrue(packed.stream().anyMatch(row -> "a\0b".equals(row.namespace())), "a NUL inside a value kept");
        assertTrue(packed.stream().anyMatch(row -> "12.7".equals(row.namespace())), "a REAL as SQLite renders it");
        assertTrue(packed.stream().anyMatch(row -> row.namespace() == null), "NULL stays null, not n");
        assertTrue(packed.stream().anyMatch(row -> "n".equals(row.namespace())), "the text n stays text");
    }

    @Test
    void computedValuesOfAViewReadAsColumnByColumn() throws Exception {
        // A view's values are computed as they are read: a zeroblob is then never written out.
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + RowQuery.TABLE + " AS SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID ? "4242" : switch (column.ordinal() % 4) {
                    case 0 -> "zeroblob(3)";
                    case 1 -> "1.0 / 3";
                    case 2 -> "printf('%.*c', 5, 'y')";
                    default -> "NULL";
                }) + " AS " + column.sqlName()).collect(Collectors.joining(", ")));

        assertEquals(1, assertBothReadsAgree(file).size());
    }

    /**
     * A row whose values together pass the cap on one value, each within it, is too long to pack:
     * SQLite refuses to build it, and the reader reads that registry column by column instead.
     */
    @Test
    void valuesTogetherOverTheCapAreReadColumnByColumn() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        var row = RawSqlite.otherWriterRow("rt-at-cap", 4242, "2026-07-28T02:00:00Z");
        row.put("repository_root", "r".repeat(ReadBounds.VALUE_BYTES));
        row.put("startup_head", "h".repeat(ReadBounds.VALUE_BYTES - 1));
        row.put("boot_id", "b".repeat(ReadBounds.VALUE_BYTES / 2));
        RawSqlite.insertRuntime(file, row);

        RegistryRead read = new SqliteRegistryReader(file).readAll();

        assertTrue(read.readable(), () -> "refused: " + read);
        assertEquals(ReadBounds.VALUE_BYTES, read.rows().get(0).repositoryRoot().length());
        try (Connection connection = SqliteFiles.readOnly(file, Duration.ofSeconds(5)).getConnection()) {
            ReadBounds.apply(connection, System.nanoTime() + Duration.ofSeconds(30).toNanos());
            List<RegistryColumn> selected = pidLast();
            SQLException tooBig = assertThrows(SQLException.class, () -> PackedRow.select(connection, selected));
            assertEquals(org.sqlite.SQLiteErrorCode.SQLITE_TOOBIG.code, SqliteErrors.primaryCode(tooBig));
            assertEquals(RowQuery.byColumn(connection, selected), read.rows());
        }
    }

    /** What the cap refuses, the packed read refuses too: here a view's intermediate value over it. */
    @Test
    void aComputedValueOverTheCapOnTheWayIsRefusedAsBefore() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + RowQuery.TABLE + " AS SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.NAMESPACE ? "length(hex(zeroblob(1000000)))"
                        : column == RegistryColumn.PID ? "4242" : "'x'") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")));

        RegistryRead read = new SqliteRegistryReader(file).readAll();

        assertEquals(dev.fleet.domain.RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        assertEquals("a value in mcp_server_runtimes is longer than 1 MiB: read refused",
                ((RegistryRead.Unreadable) read).detail());
    }

    /** A pid whose type and value differ at each look reads as a pid or as none, never as a failed read. */
    @Test
    void aPidThatDiffersAtEachLookIsAPidOrNone() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + RowQuery.TABLE + " AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                + "SELECT i + 1 FROM n WHERE i < 200) SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID || column == RegistryColumn.PARENT_PID
                        ? "CASE WHEN random() % 2 = 0 THEN 5 ELSE 'abc' END" : "'x'") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")) + " FROM n");

        RegistryRead read = new SqliteRegistryReader(file).readAll();

        assertTrue(read.readable(), () -> "refused: " + read);
        read.rows().forEach(row -> assertTrue(row.pid() == null || row.pid() == 5L, String.valueOf(row.pid())));
        assertTrue(read.rows().stream().anyMatch(row -> row.pid() == null), "some rows named no pid");
    }

    @Test
    void aUtf16RegistryReadsTheSameRowsAsAUtf8One() throws Exception {
        Path utf8 = typelessTable("utf8.sqlite3", "TABLE");
        Path utf16 = dir.resolve("utf16.sqlite3");
        RawSqlite.execute(utf16, "PRAGMA encoding = 'UTF-16le'", createTypeless("TABLE"));
        for (Path file : List.of(utf8, utf16)) {
            var row = RawSqlite.otherWriterRow("rt-ünï", 4242, "2026-07-28T02:00:00Z");
            row.put("namespace", "gitea-😀");
            row.put("startup_head", 12.5);
            RawSqlite.insertRuntime(file, row);
        }

        assertEquals(List.of(List.of("UTF-16le")), RawSqlite.query(utf16, "PRAGMA encoding"), "the file is UTF-16");
        List<RegistryRow> rows = new SqliteRegistryReader(utf16).readAll().rows();
        assertEquals(new SqliteRegistryReader(utf8).readAll().rows(), rows);
        assertEquals("gitea-😀", rows.get(0).namespace());
        assertEquals("12.5", rows.get(0).startupHead());
    }

    /**
     * Whatever bytes arrive as a packed row, the cutter either cuts them or refuses them as not
     * packed: no other exception, however the header's numbers, marks or lengths run off the end.
     */
    @Test
    void anyBytesAreCutOrRefusedNeverAnythingElse() {
        List<RegistryColumn> two = List.of(RegistryColumn.NAMESPACE, RegistryColumn.PID);
        Gen<byte[]> packedLike = lists().of(integers().between(0, 6)).ofSizeBetween(0, 16).map(picks -> {
            byte[] row = new byte[picks.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = (byte) "-1,;09x".charAt(picks.get(i));
            }
            return row;
        });
        qt().withExamples(2_000).forAll(packedLike).checkAssert(row -> {
            try {
                new PackedRow.Cutter(two).cut(row, new String[RegistryColumn.ALL.size()], new ReadBounds.Tally());
            } catch (ReadBounds.ReadRefused refused) {
                assertTrue(refused.getMessage().contains("changed while it was read"), refused.getMessage());
            }
        });
    }

    /** Values packed as the query packs them (a header of lengths, -1 for NULL, then the values) cut back to themselves. */
    @Test
    void anyValuesPackedAsTheQueryPacksThemCutBackToThemselves() {
        List<RegistryColumn> two = List.of(RegistryColumn.NAMESPACE, RegistryColumn.PID);
        Gen<String> valueOrNull = strings().allPossible().ofLengthBetween(0, 12)
                .mix(integers().all().map(ignored -> (String) null), 20);
        qt().withExamples(500).forAll(valueOrNull, valueOrNull).checkAssert((namespace, pid) -> {
            String[] text = new String[RegistryColumn.ALL.size()];
            assertDoesNotThrow(() -> new PackedRow.Cutter(two).cut(packed(namespace, pid), text, new ReadBounds.Tally()));
            assertEquals(Arrays.asList(namespace == null ? null : utf8(namespace), pid == null ? null : utf8(pid)),
                    Arrays.asList(text[RegistryColumn.NAMESPACE.ordinal()], text[RegistryColumn.PID.ordinal()]));
        });
    }

    /** {@code values} as SQLite's concat() of the header and the values makes them. */
    private static byte[] packed(String... values) {
        StringBuilder header = new StringBuilder();
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (String value : values) {
            byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
            header.append(header.length() == 0 ? "" : ",").append(bytes == null ? -1 : bytes.length);
            body.writeBytes(bytes == null ? new byte[0] : bytes);
        }
        byte[] head = (header + ";").getBytes(StandardCharsets.US_ASCII);
        byte[] row = Arrays.copyOf(head, head.length + body.size());
        System.arraycopy(body.toByteArray(), 0, row, head.length, body.size());
        return row;
    }

    /** Java text as it reads back from UTF-8 (a lone surrogate becomes U+FFFD's replacement). */
    private static String utf8(String value) {
        return new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    /** A packed row that is not as the query packs it is refused whole, never cut into other values. */
    @Test
    void aRowNotAsPackedIsRefusedNeverMiscut() {
        List<RegistryColumn> two = List.of(RegistryColumn.NAMESPACE, RegistryColumn.PID);
        for (String row : List.of("1,4;bbb4242", "3,4;a4242", "3,9;abc4242", "3,4;abc42420", "x,4;abc4242",
                ",4;abc4242", "3,4abc4242", "3;4abc4242", "3,4,5;abc4242", "3,4;abc", "", ";", "-1", "-1,-1;x",
                "-2,4;4242", "-12,4;4242", "-,4;4242", "99999999999,4;a4242", "3,4;;abc4242")) {
            PackedRow.Cutter cutter = new PackedRow.Cutter(two);
            ReadBounds.ReadRefused refused = assertThrows(ReadBounds.ReadRefused.class, () -> cutter.cut(
                    row.getBytes(StandardCharsets.UTF_8), new String[RegistryColumn.ALL.size()], new ReadBounds.Tally()),
                    row);
            assertTrue(refused.getMessage().contains("changed while it was read"), row + ": " + refused.getMessage());
        }
        String[] text = new String[RegistryColumn.ALL.size()];
        assertDoesNotThrow(() -> new PackedRow.Cutter(two).cut("3,4;abc4242".getBytes(StandardCharsets.UTF_8), text,
                new ReadBounds.Tally()));
        assertEquals(List.of("abc", "4242"), List.of(text[RegistryColumn.NAMESPACE.ordinal()],
                text[RegistryColumn.PID.ordinal()]));
        assertDoesNotThrow(() -> new PackedRow.Cutter(two).cut("-1,0;".getBytes(StandardCharsets.UTF_8), text,
                new ReadBounds.Tally()));
        assertEquals(Arrays.asList(null, ""), Arrays.asList(text[RegistryColumn.NAMESPACE.ordinal()],
                text[RegistryColumn.PID.ordinal()]), "-1 is NULL, 0 the empty text");
    }

    /**
     * A view whose values differ at each look is read once per value, as the column-by-column read
     * reads it: each length packed is its own text's, so every value read is one the view gave.
     */
    @Test
    void aViewOfValuesThatDifferAtEachLookReadsWhatItGave() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + RowQuery.TABLE + " AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                + "SELECT i + 1 FROM n WHERE i < 200) SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID ? "4242"
                        : "CASE WHEN random() % 2 = 0 THEN 'a' ELSE 'bbb' END") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")) + " FROM n");

        RegistryRead read = new SqliteRegistryReader(file).readAll();

        assertTrue(read.readable(), () -> "refused: " + read);
        assertEquals(200, read.rows().size());
        assertEquals(Set.of("a", "bbb"), read.rows().stream().flatMap(row -> java.util.stream.Stream.of(row.namespace(),
                row.profile(), row.hostId())).collect(Collectors.toSet()));
    }

    /**
     * Whatever a foreign writer binds (any text, any bytes, any number, in any column), both reads
     * agree, also where a row repeats the previous one's values ({@link PackedRow.Cutter} reuses them).
     */
    @Test
    void anyValuesInAnyColumnsReadAsColumnByColumn() throws Exception {
        Path file = typelessTable("property.sqlite3", "TABLE");
        AtomicInteger cases = new AtomicInteger();
        qt().withExamples(60).forAll(lists().of(value()).ofSize(RegistryColumn.ALL.size())).checkAssert(values -> {
            try {
                RawSqlite.execute(file, "DELETE FROM " + RowQuery.TABLE);
                insertBound(file, values);
                insertBound(file, values); // the same row again: every value the previous row's
                insertBound(file, values.subList(1, values.size()), values.get(0)); // the same values, one column on
                assertBothReadsAgree(file);
                cases.incrementAndGet();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(60, cases.get());
    }

    /** Any Java text (lone surrogates included), any bytes, a double, a long or NULL. */
    private static Gen<Object> value() {
        Gen<Object> text = strings().allPossible().ofLengthBetween(0, 12).map(string -> (Object) string);
        Gen<Object> ascii = strings().ascii().ofLengthBetween(0, 12).map(string -> (Object) string);
        Gen<Object> bytes = lists().of(integers().between(0, 255)).ofSizeBetween(0, 8).map(list -> {
            byte[] blob = new byte[list.size()];
            for (int i = 0; i < blob.length; i++) {
                blob[i] = (byte) (int) list.get(i);
            }
            return (Object) blob;
        });
        Gen<Object> real = doubles().any().map(number -> (Object) number);
        Gen<Object> whole = longs().all().map(number -> (Object) number);
        Gen<Object> none = integers().all().map(ignored -> null);
        return text.mix(ascii, 20).mix(bytes, 20).mix(real, 15).mix(whole, 15).mix(none, 15);
    }

    private static void insertBound(Path file, List<Object> values, Object... more) throws SQLException {
        List<Object> all = new ArrayList<>(values);
        Collections.addAll(all, more);
        try (Connection connection = RawSqlite.open(file);
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + RowQuery.TABLE + " VALUES ("
                        + all.stream().map(value -> "?").collect(Collectors.joining(", ")) + ")")) {
            for (int i = 0; i < all.size(); i++) {
                insert.setObject(i + 1, all.get(i));
            }
            insert.executeUpdate();
        }
    }

    /** Reads {@code file} both ways on one read-only connection, asserts the rows equal, and returns them. */
    private static List<RegistryRow> assertBothReadsAgree(Path file) throws Exception {
        try (Connection connection = SqliteFiles.readOnly(file, Duration.ofSeconds(5)).getConnection()) {
            ReadBounds.apply(connection, System.nanoTime() + Duration.ofSeconds(30).toNanos());
            List<RegistryColumn> selected = pidLast();
            List<RegistryRow> byColumn = RowQuery.byColumn(connection, selected);
            List<RegistryRow> packed = PackedRow.select(connection, selected);
            assertEquals(byColumn, packed);
            return packed;
        }
    }

    /** Every column, the pid last, as {@link RowQuery#select} selects them from a table that has them all. */
    private static List<RegistryColumn> pidLast() {
        List<RegistryColumn> selected = new ArrayList<>(RegistryColumn.ALL);
        selected.remove(RegistryColumn.PID);
        selected.add(RegistryColumn.PID);
        return selected;
    }

    private Path typelessTable(String name, String kind) throws SQLException {
        Path file = dir.resolve(name);
        RawSqlite.execute(file, createTypeless(kind));
        return file;
    }

    /** The table with every column and no column type: SQLite then keeps each value as it was bound. */
    private static String createTypeless(String kind) {
        return "CREATE " + kind + " " + RowQuery.TABLE + " (" + RegistryColumn.ALL.stream().map(RegistryColumn::sqlName)
                .collect(Collectors.joining(", ")) + ")";
    }
}
