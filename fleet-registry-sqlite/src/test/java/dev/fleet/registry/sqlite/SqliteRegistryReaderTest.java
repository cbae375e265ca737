package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.ScratchRegistry.unreadable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SqliteRegistryReaderTest extends RegistryFileTest {

    private static final RosterMember AUTHOR = Roster.defaultRoster().members().get(0);
    private static final RosterMember MERGER = Roster.defaultRoster().members().get(3);
    /** Short, so the lock test reports promptly; long enough that it is a real wait. */
    private static final Duration SHORT_BUSY_TIMEOUT = Duration.ofMillis(250);

    @Override
    SqliteRegistryReader openReader(Path registry) {
        return new SqliteRegistryReader(registry, SHORT_BUSY_TIMEOUT);
    }

    @Test
    void rowsWithEqualRegisteredAtAreOrderedByRuntimeId() {
        for (String runtimeId : List.of("rt-c", "rt-a", "rt-e", "rt-b", "rt-d")) {
            writer.register(RowBuilder.registered(AUTHOR, 44000 + runtimeId.charAt(3))
                    .with(r -> r.runtimeId = runtimeId).registration(), Optional.empty());
        }

        List<String> first = runtimeIds(reader.readAll());
        assertEquals(List.of("rt-a", "rt-b", "rt-c", "rt-d", "rt-e"), first);
        assertEquals(first, runtimeIds(reader.readAll()));
    }

    @Test
    void rowsAreOrderedByTheRegistrationInstantWhateverItsFormat() throws Exception {
        writer.migrate();
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-1", 44101, "2026-07-28T02:00:00Z"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-2", 44102, "2026-07-28T03:30:00+02:00"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-3", 44103, "2026-07-28T01:59:59.5-00:30"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-0", 44104, "garbage"));
        writer.register(RowBuilder.registered(MERGER, 44105).with(r -> r.runtimeId = "rt-4")
                .at(Instant.parse("2026-07-28T02:00:00.001Z")).registration(), Optional.empty());

        // 01:30Z, 02:00Z, 02:00:00.001Z, 02:29:59.5Z, then the unparseable row last.
        assertEquals(List.of("rt-2", "rt-1", "rt-4", "rt-3", "rt-0"), runtimeIds(reader.readAll()));
    }

    @Test
    void theStatusFilterSelectsRowsOfThatStatus() {
        Registration running = RowBuilder.registered(AUTHOR, 44200).registration();
        Registration stopped = RowBuilder.registered(MERGER, 44201).registration();
        writer.register(running, Optional.empty());
        writer.register(stopped, Optional.empty());
        writer.markStopped(stopped.runtimeId(), Instant.parse("2026-07-28T02:10:00Z"));

        assertEquals(List.of(running.runtimeId()), runtimeIds(reader.read(RegistrationStatus.RUNNING)));
        assertEquals(List.of(stopped.runtimeId()), runtimeIds(reader.read(RegistrationStatus.STOPPED)));
    }

    @Test
    void readingEverythingIncludesStoppedRows() {
        Registration stopped = RowBuilder.registered(MERGER, 44300).registration();
        writer.register(stopped, Optional.empty());
        writer.markStopped(stopped.runtimeId(), Instant.parse("2026-07-28T02:10:00Z"));

        RegistryRead read = reader.readAll();

        assertEquals(List.of("stopped"), read.rows().stream().map(RegistryRow::status).toList());
    }

    @Test
    void readingNeverChangesTheMainDatabaseFile() throws Exception {
        long pid = 44400;
        for (RosterMember member : Roster.defaultRoster().members()) {
            writer.register(RowBuilder.registered(member, pid++).registration(), Optional.empty());
        }
        String before = RawSqlite.sha256(file);

        RegistryRead all = reader.readAll();
        reader.read(RegistrationStatus.RUNNING);
        new SqliteRegistryReader(file).readAll();

        assertEquals(5, all.rows().size());
        assertEquals(before, RawSqlite.sha256(file));
    }

    @Test
    void aMissingFileIsReportedAndNeverCreated() throws Exception {
        Path missing = dir.resolve("absent/control_plane.sqlite3");
        Path missingHere = ScratchRegistry.in(dir);
        SqliteRegistryReader absent = new SqliteRegistryReader(missing);

        assertEquals(RegistryRead.unreadable(RegistryReason.MISSING), absent.readAll());
        assertEquals(RegistryRead.unreadable(RegistryReason.MISSING), reader.read(RegistrationStatus.RUNNING));
        assertFalse(Files.exists(missing.getParent()));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "no database, journal, -wal or -shm file appears: "
                    + missingHere);
        }
    }

    @Test
    void randomBytesAreACorruptRegistry() throws Exception {
        byte[] noise = new byte[16 * 1024];
        new Random(949).nextBytes(noise);
        Files.write(file, noise);

        assertEquals(RegistryRead.unreadable(RegistryReason.CORRUPT), reader.readAll());
        assertEquals(List.of(noise.length), List.of(Files.readAllBytes(file).length));
        assertTrue(java.util.Arrays.equals(noise, Files.readAllBytes(file)), "the file is left as it was");
    }

    @Test
    void aDatabaseWithoutTheTableIsSchemaMissing() throws Exception {
        RawSqlite.execute(file, "CREATE TABLE sessions (session_id TEXT PRIMARY KEY)",
                "INSERT INTO sessions VALUES ('s-a')");
        String before = RawSqlite.sha256(file);

        assertEquals(RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "no table mcp_server_runtimes"),
                reader.readAll());
        assertEquals(before, RawSqlite.sha256(file), "the reader never migrates");
    }

    @Test
    void anEmptyFileIsAnEmptyDatabaseWithoutTheTable() throws Exception {
        Files.createFile(file);

        assertEquals(RegistryReason.SCHEMA_MISSING, unreadable(reader.readAll()).reason());
        assertEquals(0, Files.size(file), "still empty: the reader never migrates");
    }

    @Test
    void aTableMissingAColumnThisReaderNeedsIsSchemaMissing() throws Exception {
        RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, pid INTEGER)");

        assertEquals(RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "mcp_server_runtimes lacks columns "
                + "namespace, profile, role, remote, org, repo, repository_root, cohort_id, cohort_source, "
                + "client_provenance, boot_id, startup_head, transport, status, registered_at, last_heartbeat_at, "
                + "stopped_at"), reader.readAll());
    }

    @Test
    void aWriterHoldingAnExclusiveLockPastTheBusyTimeoutIsLocked() throws Exception {
        writer.register(RowBuilder.registered(AUTHOR, 44500).registration(), Optional.empty());
        // WAL readers are never blocked by a writer's transaction; a rollback journal makes BEGIN
        // EXCLUSIVE keep readers out, which is what another tool's long transaction can do.
        RawSqlite.execute(file, "PRAGMA journal_mode = DELETE");
        assertEquals("delete", RawSqlite.scalar(file, "PRAGMA journal_mode"));

        try (Connection holder = RawSqlite.open(file); Statement statement = holder.createStatement()) {
            statement.execute("BEGIN EXCLUSIVE");
            statement.execute("UPDATE mcp_server_runtimes SET last_heartbeat_at = last_heartbeat_at");

            assertEquals(RegistryRead.unreadable(RegistryReason.LOCKED), reader.readAll());

            statement.execute("ROLLBACK");
        }
        assertEquals(List.of("rt-prgs-author-44500"), runtimeIds(reader.readAll()), "readable once released");
    }

    @Test
    void anExclusiveLockingModeWriterOnAWalFileIsLocked() throws Exception {
        writer.register(RowBuilder.registered(AUTHOR, 44600).registration(), Optional.empty());
        assertEquals("wal", RawSqlite.scalar(file, "PRAGMA journal_mode"));

        try (Connection holder = RawSqlite.open(file); Statement statement = holder.createStatement()) {
            statement.execute("PRAGMA locking_mode = EXCLUSIVE");
            statement.execute("BEGIN EXCLUSIVE");
            statement.execute("UPDATE mcp_server_runtimes SET last_heartbeat_at = last_heartbeat_at");
            statement.execute("COMMIT");

            assertEquals(RegistryRead.unreadable(RegistryReason.LOCKED), reader.readAll(),
                    "an exclusive-mode WAL connection keeps its lock after committing");
        }
        assertEquals(List.of("rt-prgs-author-44600"), runtimeIds(reader.readAll()), "readable once closed");
    }

    @Test
    void rowsOtherToolsWroteBadlyReadAsMalformedBesideTheGoodOnes() throws Exception {
        Registration good = RowBuilder.registered(AUTHOR, 44700).registration();
        writer.register(good, Optional.empty());
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-pid-zero", 0, "2026-07-28T02:00:01Z"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-bad-time", 44701, "not-a-time"));
        Map<String, Object> textPid = RawSqlite.otherWriterRow("rt-text-pid", 44702, "2026-07-28T02:00:02Z");
        textPid.put("pid", "forty-four");
        RawSqlite.insertRuntime(file, textPid);
        Map<String, Object> realPid = RawSqlite.otherWriterRow("rt-real-pid", 44704, "2026-07-28T02:00:04Z");
        realPid.put("pid", 44704.5);
        RawSqlite.insertRuntime(file, realPid);
        Map<String, Object> badStatus = RawSqlite.otherWriterRow("rt-bad-status", 44703, "2026-07-28T02:00:03Z");
        badStatus.put("status", "zombie");
        RawSqlite.insertRuntime(file, badStatus);

        RegistryRead read = reader.readAll();

        assertTrue(read.readable());
        Map<String, Object> interpreted = new java.util.TreeMap<>();
        for (RegistryRow row : read.rows()) {
            interpreted.put(row.runtimeId(), row.interpret() instanceof MalformedRegistration malformed
                    ? malformed.reason() : "registration");
        }
        assertEquals(Map.of(
                good.runtimeId(), "registration",
                "rt-pid-zero", MalformedReason.PID_INVALID,
                "rt-bad-time", MalformedReason.REGISTERED_AT_UNPARSEABLE,
                "rt-text-pid", MalformedReason.PID_INVALID,
                "rt-real-pid", MalformedReason.PID_INVALID,
                "rt-bad-status", MalformedReason.STATUS_UNKNOWN), interpreted);
        assertEquals("not-a-time", read.rows().get(read.rows().size() - 1).registeredAt(), "text is kept as stored");
    }

    @Test
    void timestampsOtherWritersUseReadFine() throws Exception {
        writer.migrate();
        Map<String, Object> row = RawSqlite.otherWriterRow("rt-python", 44800, "2026-07-28T02:00:00Z");
        row.put("last_heartbeat_at", "2026-07-28T02:00:30+00:00");
        row.put("process_started_at", "2026-07-28T01:59:58.123456789+00:00");
        RawSqlite.insertRuntime(file, row);

        RegistryRow read = reader.readAll().rows().get(0);

        Registration registration = assertInstanceOf(Registration.class, read.interpret());
        assertEquals(Instant.parse("2026-07-28T02:00:00Z"), registration.tenure().registeredAt());
        assertEquals(Instant.parse("2026-07-28T02:00:30Z"), registration.tenure().lastHeartbeatAt());
        assertEquals(Instant.parse("2026-07-28T01:59:58.123456789Z"), registration.process().startedAt());
        assertEquals(44800L, registration.process().pid());
    }

    @Test
    void locationIsTheRegistryPath() {
        assertEquals(file.toString(), reader.location());
    }

    private static List<String> runtimeIds(RegistryRead read) {
        assertTrue(read.readable(), () -> "unreadable: " + ((RegistryRead.Unreadable) read).reason());
        return read.rows().stream().map(RegistryRow::runtimeId).toList();
    }
}
