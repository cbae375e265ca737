package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever another writer stored, the reader reads it as the driver renders each value: every storage
 * class SQLite has, text no decoder likes, computed values of a view, values at the cap on one value,
 * a UTF-16 file. An INTEGER column is a number only where SQLite stores a whole number in it.
 */
class AwkwardValuesTest {

    /** Values as SQL, for a table whose columns have no type, so each keeps its own storage class. */
    private static final List<String> STORED = List.of(
            "NULL", "''", "'n'", "'x'", "':'", "'12:34'", "'0:'", "'n:3'", "char(0)", "'a' || char(0) || 'b'",
            "'😀 é ☃ 中'", "X''", "X'FF80C3'", "X'F09F98'", "X'EDA0BD'", "CAST('15494' AS BLOB)", "12.7", "1e300",
            "-0.0", "0.1", "5e-324", "42", "-7", "9223372036854775807", "-9223372036854775808");
    /** The shapes of pid a foreign writer may store, and what each reads as. */
    private static final List<String> PIDS = List.of("4242", "'015494'", "15494.0", "CAST('15494' AS BLOB)", "NULL", "-3");

    @TempDir
    Path dir;

    @Test
    void everyStorageClassAndAwkwardTextReadsAsTheDriverRendersIt() throws Exception {
        Path file = dir.resolve("stored.sqlite3");
        RawSqlite.execute(file, createTypeless());
        try (Connection connection = RawSqlite.open(file); Statement insert = connection.createStatement()) {
            for (int i = 0; i < STORED.size(); i++) {
                String value = STORED.get(i);
                String pid = PIDS.get(i % PIDS.size());
                insert.execute("INSERT INTO " + SqliteRows.TABLE + " VALUES (" + RegistryColumn.ALL.stream()
                        .map(column -> column == RegistryColumn.PID ? pid : value).collect(Collectors.joining(", ")) + ")");
            }
        }

        List<RegistryRow> rows = readable(file);

        assertEquals(STORED.size(), rows.size());
        assertTrue(rows.stream().anyMatch(row -> "😀 é ☃ 中".equals(row.namespace())), "UTF-8 text decoded");
        assertTrue(rows.stream().anyMatch(row -> "a\0b".equals(row.namespace())), "a NUL inside a value kept");
        assertTrue(rows.stream().anyMatch(row -> "12.7".equals(row.namespace())), "a REAL as SQLite renders it");
        assertTrue(rows.stream().anyMatch(row -> row.namespace() == null), "NULL stays null, not n");
        assertTrue(rows.stream().anyMatch(row -> "n".equals(row.namespace())), "the text n stays text");
        assertEquals(Set.of(4242L, -3L, -1L), rows.stream().map(RegistryRow::pid).filter(pid -> pid != null)
                .collect(Collectors.toSet()), "only a pid SQLite stores as a whole number is one; any other reads as -1");
        // An INTEGER column other than the pid reads the same way: 42 and -7 are whole numbers, the rest -1.
        assertEquals(Set.of(42L, -7L, -1L), rows.stream().map(RegistryRow::parentPid).filter(pid -> pid != null)
                .collect(Collectors.toSet()));
    }

    @Test
    void computedValuesOfAViewRead() throws Exception {
        // A view's values are computed as they are read: a zeroblob is then never written out.
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + SqliteRows.TABLE + " AS SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID ? "4242" : switch (column.ordinal() % 4) {
                    case 0 -> "zeroblob(3)";
                    case 1 -> "1.0 / 3";
                    case 2 -> "printf('%.*c', 5, 'y')";
                    default -> "NULL";
                }) + " AS " + column.sqlName()).collect(Collectors.joining(", ")));

        List<RegistryRow> rows = readable(file);

        assertEquals(1, rows.size());
        assertEquals(4242L, rows.get(0).pid());
        assertEquals("yyyyy", rows.get(0).profile(), "the printf of column 2");
    }

    /** Values each within the cap on one value, together far over it, read whole. */
    @Test
    void valuesTogetherOverTheCapRead() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        var row = RawSqlite.otherWriterRow("rt-at-cap", 4242, "2026-07-28T02:00:00Z");
        row.put("repository_root", "r".repeat(ReadBounds.VALUE_BYTES));
        row.put("startup_head", "h".repeat(ReadBounds.VALUE_BYTES - 1));
        row.put("boot_id", "b".repeat(ReadBounds.VALUE_BYTES / 2));
        RawSqlite.insertRuntime(file, row);

        List<RegistryRow> rows = readable(file);

        assertEquals(ReadBounds.VALUE_BYTES, rows.get(0).repositoryRoot().length());
        assertEquals(ReadBounds.VALUE_BYTES - 1, rows.get(0).startupHead().length());
    }

    /** What the cap refuses is refused, also a view's intermediate value over it. */
    @Test
    void aComputedValueOverTheCapOnTheWayIsRefused() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + SqliteRows.TABLE + " AS SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.NAMESPACE ? "length(hex(zeroblob(1000000)))"
                        : column == RegistryColumn.PID ? "4242" : "'x'") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")));

        RegistryRead read = new SqliteRegistryReader(file).readAll();

        assertEquals(RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        assertEquals("a value in mcp_server_runtimes is longer than 1 MiB: read refused",
                ((RegistryRead.Unreadable) read).detail());
    }

    /** A pid whose type and value differ at each look reads as a pid or as -1 (no process), never as a failed read. */
    @Test
    void aPidThatDiffersAtEachLookIsAPidOrNone() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + SqliteRows.TABLE + " AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                + "SELECT i + 1 FROM n WHERE i < 200) SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID || column == RegistryColumn.PARENT_PID
                        ? "CASE WHEN random() % 2 = 0 THEN 5 ELSE 'abc' END" : "'x'") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")) + " FROM n");

        List<RegistryRow> rows = readable(file);

        rows.forEach(row -> assertTrue(row.pid() == -1L || row.pid() == 5L, String.valueOf(row.pid())));
        assertTrue(rows.stream().anyMatch(row -> row.pid() == -1L), "some rows named no process");
    }

    /** A view whose values differ at each look reads, every value one the view gave. */
    @Test
    void aViewOfValuesThatDifferAtEachLookReadsWhatItGave() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW " + SqliteRows.TABLE + " AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                + "SELECT i + 1 FROM n WHERE i < 200) SELECT " + RegistryColumn.ALL.stream()
                .map(column -> (column == RegistryColumn.PID ? "4242"
                        : "CASE WHEN random() % 2 = 0 THEN 'a' ELSE 'bbb' END") + " AS " + column.sqlName())
                .collect(Collectors.joining(", ")) + " FROM n");

        List<RegistryRow> rows = readable(file);

        assertEquals(200, rows.size());
        assertEquals(Set.of("a", "bbb"), rows.stream().flatMap(row -> Stream.of(row.namespace(), row.profile(),
                row.hostId())).collect(Collectors.toSet()));
    }

    @Test
    void aUtf16RegistryReadsTheSameRowsAsAUtf8One() throws Exception {
        Path utf8 = dir.resolve("utf8.sqlite3");
        Path utf16 = dir.resolve("utf16.sqlite3");
        RawSqlite.execute(utf8, createTypeless());
        RawSqlite.execute(utf16, "PRAGMA encoding = 'UTF-16le'", createTypeless());
        for (Path file : List.of(utf8, utf16)) {
            var row = RawSqlite.otherWriterRow("rt-ünï", 4242, "2026-07-28T02:00:00Z");
            row.put("namespace", "gitea-😀");
            row.put("startup_head", 12.5);
            RawSqlite.insertRuntime(file, row);
        }

        assertEquals(List.of(List.of("UTF-16le")), RawSqlite.query(utf16, "PRAGMA encoding"), "the file is UTF-16");
        List<RegistryRow> rows = readable(utf16);
        assertEquals(readable(utf8), rows);
        assertEquals("gitea-😀", rows.get(0).namespace());
        assertEquals("12.5", rows.get(0).startupHead());
    }

    private static List<RegistryRow> readable(Path file) {
        RegistryRead read = new SqliteRegistryReader(file).readAll();
        assertTrue(read.readable(), () -> "refused: " + read);
        return read.rows();
    }

    /** The table with every column and no column type: SQLite then keeps each value as it was bound. */
    private static String createTypeless() {
        return "CREATE TABLE " + SqliteRows.TABLE + " (" + Arrays.stream(RegistryColumn.values())
                .map(RegistryColumn::sqlName).collect(Collectors.joining(", ")) + ")";
    }
}
