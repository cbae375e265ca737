package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.ScratchRegistry.unreadable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RowTally;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Registries built to hurt the reader: views that never end or compute huge values, files that are
 * not databases, links that never resolve, loosely typed pids and a corrupted index. Each must give
 * a reason (with a detail where there is something to say) within the read bounds, never a hang, an
 * OutOfMemoryError or hidden rows.
 */
class HostileRegistryTest {

    /** Only to detect a hang or a runaway read: the bounds answer within seconds even on a loaded host. */
    private static final Duration HANG = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void aViewOverAnEndlessRecursionThatNeverYieldsARowIsStoppedAtTheReadDeadline() throws Exception {
        Path file = view(dir, "FROM n WHERE i < 0", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)");

        assertUnreadable(file, RegistryReason.IO_ERROR, "took longer than " + ReadBounds.READ_TIME.toSeconds() + " s");
    }

    @Test
    void aViewThatSortsAnEndlessRecursionIsStoppedAtTheReadDeadline() throws Exception {
        Path file = view(dir, "FROM n ORDER BY i DESC", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)");

        RegistryRead read = readAll(file);

        assertEquals(RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        assertTrue(((RegistryRead.Unreadable) read).detail().contains("took longer than") || ((RegistryRead.Unreadable) read).detail().contains("MiB of SQLite's memory"),
                ((RegistryRead.Unreadable) read).detail());
    }

    /** What a foreign view sorts stays in SQLite's bounded memory: the reader writes no temporary file. */
    @Test
    void theReaderSortsInMemoryNeverInATemporaryFile() throws Exception {
        Path file = view(dir, "FROM n", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)");
        try (Connection connection = SqliteFiles.readOnly(file, Duration.ofSeconds(1)).getConnection();
                Statement statement = connection.createStatement();
                ResultSet store = statement.executeQuery("PRAGMA temp_store")) {
            assertTrue(store.next());
            assertEquals(2, store.getInt(1), "temp_store=MEMORY");
        }
    }

    @Test
    void aViewOfEndlessRowsIsRefusedAtTheRowCap() throws Exception {
        Path file = view(dir, "FROM n", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)");

        RegistryRead read = readAll(file);

        assertEquals(RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        // Whichever bound a slow host meets first: the rows, or the time they take.
        assertTrue(((RegistryRead.Unreadable) read).detail().contains("more than " + RowTally.MAX_ROWS + " rows")
                || ((RegistryRead.Unreadable) read).detail().contains("took longer than"), ((RegistryRead.Unreadable) read).detail());
    }

    /**
     * 40 computed values of 200 MB each are refused before one is built (the value cap); 100 just
     * under it, at the text cap over all rows. Whichever bound a slow host meets first: the size, or
     * the time that building so much text takes there.
     */
    @ParameterizedTest
    @CsvSource({"40, 200000000, longer than 1 MiB", "100, 1000000, Mi characters of text"})
    void hugeComputedValuesAreRefusedAtTheirBound(int rows, int width, String detail) throws Exception {
        Path file = view(dir, "FROM n", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + rows + ")",
                Map.of("repository_root", "printf('%.*c', " + width + ", 'x')"));

        RegistryRead read = readAll(file);

        assertEquals(RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        assertTrue(((RegistryRead.Unreadable) read).detail().contains(detail) || ((RegistryRead.Unreadable) read).detail().contains("took longer than"), ((RegistryRead.Unreadable) read).detail());
    }

    @Test
    void aStoredValueOverTheCapIsRefusedToo() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        Map<String, Object> row = RawSqlite.otherWriterRow("rt-huge", 4242, "2026-07-28T02:00:00Z");
        row.put("repository_root", "x".repeat(ReadBounds.VALUE_BYTES + 1));
        RawSqlite.insertRuntime(file, row);

        assertUnreadable(file, RegistryReason.IO_ERROR, "longer than 1 MiB");
    }

    @Test
    void aOneByteFileIsCorruptNotASchemaProblem() throws Exception {
        Path file = ScratchRegistry.in(dir);
        Files.write(file, new byte[] {'x'});

        assertUnreadable(file, RegistryReason.CORRUPT, "shorter than SQLite's 100-byte header");
    }

    @Test
    void aTruncatedHeaderIsCorrupt() throws Exception {
        Path file = ScratchRegistry.in(dir);
        Files.write(file, "SQLite format 3\0 and no more".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        assertEquals(RegistryReason.CORRUPT, unreadable(readAll(file)).reason());
    }

    @Test
    void anEmptyFileIsStillAnEmptyDatabase() throws Exception {
        Path file = Files.createFile(ScratchRegistry.in(dir));

        assertEquals(RegistryReason.SCHEMA_MISSING, unreadable(readAll(file)).reason());
    }

    @Test
    void aSymbolicLinkLoopIsAnIoErrorNotMissing() throws Exception {
        Path a = dir.resolve("a.sqlite3");
        Path b = dir.resolve("b.sqlite3");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);

        assertUnreadable(a, RegistryReason.IO_ERROR, "does not resolve");
    }

    @Test
    void moreThanFortyLinksInARowAreAnIoErrorNotMissing() throws Exception {
        Path target = ScratchRegistry.migratedIn(dir);
        Path link = target;
        for (int i = 0; i < 45; i++) {
            link = Files.createSymbolicLink(dir.resolve("link-" + i), link);
        }

        assertUnreadable(link, RegistryReason.IO_ERROR, "does not resolve");
        assertTrue(readAll(dir.resolve("link-10")).readable(), "a short chain still reads");
    }

    @Test
    void aPidNotStoredAsAnIntegerIsInvalidWhateverItsDigits() throws Exception {
        // Another tool's table whose pid column has no type: SQLite keeps each value's own storage class.
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (" + RegistryColumn.ALL.stream().map(RegistryColumn::sqlName)
                .map(column -> column.equals("pid") ? "pid" : column + " TEXT").collect(Collectors.joining(", ")) + ")");
        insertWithPid(file, "rt-integer", "15494");
        insertWithPid(file, "rt-text", "'015494'");
        insertWithPid(file, "rt-text-plain", "CAST(15494 AS TEXT)");
        insertWithPid(file, "rt-blob", "CAST('15494' AS BLOB)");
        insertWithPid(file, "rt-real", "15494.0");
        insertWithPid(file, "rt-19-digits", "1234567890123456789");
        insertWithPid(file, "rt-17-digits", "12345678901234567");

        Map<String, Object> interpreted = new TreeMap<>();
        for (RegistryRow row : readAll(file).rows()) {
            interpreted.put(row.runtimeId(), row.interpret() instanceof MalformedRegistration malformed
                    ? malformed.reason() : row.pid());
        }

        assertEquals(Map.of(
                "rt-integer", 15494L,
                "rt-text", MalformedReason.PID_INVALID,
                "rt-text-plain", MalformedReason.PID_INVALID,
                "rt-blob", MalformedReason.PID_INVALID,
                "rt-real", MalformedReason.PID_INVALID,
                "rt-19-digits", MalformedReason.PID_INVALID,
                "rt-17-digits", MalformedReason.PID_INVALID), interpreted);
        assertEquals(List.of(List.of("text"), List.of("real"), List.of("blob")), RawSqlite.query(file,
                "SELECT typeof(pid) FROM mcp_server_runtimes WHERE runtime_id IN ('rt-text', 'rt-blob', 'rt-real') "
                        + "ORDER BY runtime_id DESC"), "stored as the hostile writer meant");
    }

    @Test
    void aCorruptedStatusIndexHidesNoRowFromAFilteredListing() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        for (int i = 0; i < 20; i++) {
            RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-" + i, 5000 + i, "2026-07-28T02:00:00Z"));
        }
        // An index built over another column, then declared to be on status: every lookup by status misses.
        RawSqlite.execute(file, "CREATE INDEX lying ON mcp_server_runtimes(namespace)",
                "PRAGMA writable_schema = ON",
                "UPDATE sqlite_master SET sql = 'CREATE INDEX lying ON mcp_server_runtimes(status)' WHERE name = 'lying'",
                "PRAGMA writable_schema = OFF");
        assertEquals(List.of(), RawSqlite.query(file,
                "SELECT runtime_id FROM mcp_server_runtimes WHERE status = 'running'"), "the index does lie");

        RegistryRead running = assertTimeoutPreemptively(HANG,
                () -> new SqliteRegistryReader(file).read(RegistrationStatus.RUNNING));

        assertTrue(running.readable(), () -> String.valueOf(running));
        assertEquals(20, running.rows().size());
        assertEquals(20, readAll(file).rows().size());
    }

    @Test
    void aViewOfOrdinaryRowsStillReads() throws Exception {
        Path file = view(dir, "FROM n", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)");

        RegistryRead read = readAll(file);

        assertTrue(read.readable(), () -> ((RegistryRead.Unreadable) read).reason() + ": " + ((RegistryRead.Unreadable) read).detail());
        assertEquals(3, read.rows().size());
        assertInstanceOf(dev.fleet.domain.Registration.class, read.rows().get(0).interpret());
    }

    private static RegistryRead readAll(Path file) {
        return assertTimeoutPreemptively(HANG, () -> new SqliteRegistryReader(file).readAll());
    }

    private static void insertWithPid(Path file, String runtimeId, String pidSql) throws Exception {
        RawSqlite.execute(file, "INSERT INTO mcp_server_runtimes (runtime_id, namespace, pid, cohort_source, status, "
                + "registered_at, last_heartbeat_at) VALUES ('" + runtimeId + "', 'gitea-author', " + pidSql
                + ", 'unknown', 'running', '2026-07-28T02:00:00Z', '2026-07-28T02:00:00Z')");
    }

    /** A registry whose mcp_server_runtimes is a view over the recursive {@code cte}, every column computed. */
    static Path view(Path dir, String from, String cte) throws Exception {
        return view(dir, from, cte, Map.of());
    }

    static Path view(Path dir, String from, String cte, Map<String, String> overrides) throws Exception {
        Path file = ScratchRegistry.in(dir);
        Map<String, String> values = new TreeMap<>(Map.of("runtime_id", "'rt-' || i", "namespace", "'gitea-author'",
                "pid", "100000 + i", "cohort_source", "'unknown'", "status", "'running'",
                "registered_at", "'2026-07-28T02:00:00Z'", "last_heartbeat_at", "'2026-07-28T02:00:00Z'"));
        values.putAll(overrides);
        String columns = RegistryColumn.ALL.stream().map(RegistryColumn::sqlName)
                .map(column -> values.getOrDefault(column, "NULL") + " AS " + column)
                .collect(Collectors.joining(", "));
        RawSqlite.execute(file, "CREATE VIEW mcp_server_runtimes AS WITH RECURSIVE " + cte + " SELECT " + columns
                + " " + from);
        return file;
    }

    /** Read, the file is unreadable for {@code reason}, and the detail says {@code detail}. */
    private static void assertUnreadable(Path file, RegistryReason reason, String detail) {
        RegistryRead read = readAll(file);
        assertEquals(reason, ((RegistryRead.Unreadable) read).reason(), String.valueOf(((RegistryRead.Unreadable) read).detail()));
        assertTrue(((RegistryRead.Unreadable) read).detail().contains(detail), ((RegistryRead.Unreadable) read).detail());
    }
}
