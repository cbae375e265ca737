package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqliteRegistryWriterTest extends RegistryFileTest {

    private static final Roster ROSTER = Roster.defaultRoster();
    private static final RosterMember AUTHOR = member("author");
    private static final RosterMember REVIEWER = member("reviewer");
    private static final RosterMember MERGER = member("merger");
    /** The writer's "now": retention is measured from here. */
    private static final Instant NOW = Instant.parse("2026-08-10T12:00:00.000Z");
    private static final Optional<Duration> WEEK = Optional.of(RegistryWriter.DEFAULT_RETENTION);

    @Override
    SqliteRegistryWriter openWriter(Path registry) {
        return new SqliteRegistryWriter(registry, () -> NOW, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);
    }

    @Test
    void everyFieldRoundTrips() {
        Registration registration = RowBuilder.registered(member("controller"), 41001).with(r -> {
            r.cohortSource = CohortSource.PARENT_PROCESS.code();
            r.clientProvenance = ClientProvenance.OPERATOR_MANAGED.code();
            r.transport = "streamable_http";
            r.lastHeartbeatAt = Timestamps.format(RowBuilder.REGISTERED.plusSeconds(30));
            r.processStartedAt = "2026-07-28T01:59:58.123Z";
        }).registration();

        Registration stored = writer.register(registration, Optional.empty());

        assertEquals(registration, stored);
        assertEquals(List.of(registration.toRow()), reader.readAll().rows());
        assertEquals("2026-07-28T02:00:00.250Z", reader.readAll().rows().get(0).registeredAt(),
                "timestamps are written as YYYY-MM-DDTHH:MM:SS.sssZ");
    }

    /** An HTTP server's endpoint (this project's column) round-trips; a stdio row's is NULL. */
    @Test
    void theEndpointRoundTripsAndIsNullForStdio() throws Exception {
        Registration http = RowBuilder.registered(member("controller"), 41003).with(r -> r.transport = "streamable_http")
                .registration().toBuilder().endpoint("http://127.0.0.1:43615/mcp").build();
        Registration stdio = RowBuilder.registered(AUTHOR, 41004).registration();

        assertEquals(http, writer.register(http, Optional.empty()));
        assertEquals(stdio, writer.register(stdio, Optional.empty()));

        assertEquals(List.of(stdio.toRow(), http.toRow()), reader.readAll().rows()); // by registered_at, runtime_id
        assertEquals(List.of(List.of("http://127.0.0.1:43615/mcp"), java.util.Arrays.asList((Object) null)),
                RawSqlite.query(file, "SELECT endpoint FROM mcp_server_runtimes ORDER BY pid"));
    }

    /**
     * The server's parent (this project's columns) round-trips, the pid stored as an INTEGER; a parent
     * pid another tool stored as text or REAL names no process and reads as unknown, never as a pid.
     */
    @Test
    void theParentRoundTripsAndOnlyAnIntegerNamesOne() throws Exception {
        Registration started = RowBuilder.registered(AUTHOR, 41005)
                .parent(40990, Instant.parse("2026-07-28T01:58:00.125Z")).registration();

        assertEquals(started, writer.register(started, Optional.empty()));
        assertEquals(List.of(started.toRow()), reader.readAll().rows());
        assertEquals(List.of(List.of("integer", "2026-07-28T01:58:00.125Z")),
                RawSqlite.query(file, "SELECT typeof(parent_pid), parent_started_at FROM mcp_server_runtimes"));

        for (String stored : List.of("'forty'", "40990.5", "x'3430393930'")) {
            RawSqlite.execute(file, "UPDATE mcp_server_runtimes SET parent_pid = " + stored);
            assertNull(reader.readAll().rows().get(0).parentPid(), stored);
        }
    }

    @Test
    void unknownValuesRoundTripAsNull() {
        Registration registration = RowBuilder.registered(AUTHOR, 41002).with(r -> {
            r.profile = null;
            r.role = null;
            r.cohortId = null;
            r.cohortSource = CohortSource.UNKNOWN.code();
            r.bootId = null;
            r.processStartedAt = null;
            r.startupHead = null;
            r.repositoryRoot = null;
        }).registration();

        assertEquals(registration, writer.register(registration, Optional.empty()));
        assertEquals(List.of(registration.toRow()), reader.readAll().rows());
    }

    @Test
    void aBlankRuntimeIdIsRejectedWithAClearError() {
        assertEquals("registration: runtime_id must be non-blank", rejection("  ", "gitea-author", 43000));
        assertEquals("registration: runtime_id must be non-blank", rejection(null, "gitea-author", 43000));
    }

    @Test
    void aBlankNamespaceIsRejectedWithAClearError() {
        assertEquals("registration: namespace must be non-blank", rejection("rt-1", " ", 43000));
        assertEquals("registration: namespace must be non-blank", rejection("rt-1", null, 43000));
    }

    /** A registration cannot lack a pid (its type says so); a row another tool wrote without one is malformed. */
    @Test
    void aMissingPidCannotBeRegisteredAndReadsAsMalformed() throws Exception {
        writer.migrate();
        java.util.Map<String, Object> row = RawSqlite.otherWriterRow("rt-no-pid", 1, "2026-07-28T02:00:00Z");
        row.remove("pid");
        assertThrows(java.sql.SQLException.class, () -> RawSqlite.insertRuntime(file, row), "NOT NULL pid");
        RawSqlite.execute(file, "INSERT INTO mcp_server_runtimes (runtime_id, namespace, pid, cohort_source, status, "
                + "registered_at, last_heartbeat_at) VALUES ('rt-text-pid', 'gitea-author', 'none', 'unknown', "
                + "'running', '2026-07-28T02:00:00Z', '2026-07-28T02:00:00Z')");
        RegistryRow read = reader.readAll().rows().stream()
                .filter(candidate -> candidate.runtimeId().equals("rt-text-pid")).findFirst().orElseThrow();
        assertEquals(dev.fleet.domain.MalformedReason.PID_INVALID,
                ((dev.fleet.domain.MalformedRegistration) read.interpret()).reason());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -41004})
    void aNonPositivePidIsRejectedWithAClearError(long pid) {
        assertEquals("registration: pid must be a positive integer, got " + pid, rejection("rt-1", "gitea-author", pid));
    }

    @Test
    void theFiveDefaultMembersRegisterIndependently() {
        long pid = 41100;
        for (RosterMember member : ROSTER.members()) {
            writer.register(RowBuilder.registered(member, pid++).at(NOW).registration(), WEEK);
        }

        List<RegistryRow> rows = reader.readAll().rows();
        assertEquals(List.of("prgs-author", "prgs-controller", "prgs-merger", "prgs-reconciler", "prgs-reviewer"),
                rows.stream().map(RegistryRow::profile).sorted().toList());
        assertEquals(List.of(41100L, 41101L, 41102L, 41103L, 41104L),
                rows.stream().map(RegistryRow::pid).sorted().toList());
    }

    @Test
    void registeringOnAReusedPidReplacesTheStaleRow() {
        writer.register(RowBuilder.registered(AUTHOR, 41200).registration(), Optional.empty());
        Registration second = RowBuilder.registered(REVIEWER, 41200).at(RowBuilder.REGISTERED.plusSeconds(60)).registration();

        writer.register(second, Optional.empty());

        assertEquals(List.of(second.toRow()), reader.readAll().rows());
    }

    @Test
    void aRowOnAnotherPidIsNeverRemovedWhateverItsNamespaceEvenWithRetention() {
        Instant recent = NOW.minusSeconds(3600);
        writer.register(RowBuilder.registered(AUTHOR, 41300).at(recent).registration(), Optional.empty());
        writer.register(RowBuilder.registered(MERGER, 41301).at(recent).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41302).at(recent.plusSeconds(1))
                .with(r -> r.runtimeId = "rt-second-author").registration(), WEEK);

        assertEquals(List.of(41300L, 41301L, 41302L),
                reader.readAll().rows().stream().map(RegistryRow::pid).sorted().toList(),
                "a live duplicate author must stay visible");
    }

    @Test
    void retentionDropsOnlyRowsOldOnBothTimestamps() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        writer.register(RowBuilder.registered(MERGER, 41400).at(old).registration(), Optional.empty());
        writer.register(RowBuilder.registered(REVIEWER, 41401).at(NOW.minusSeconds(60)).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41402).at(NOW).registration(), WEEK);

        assertEquals(List.of(41401L, 41402L), pids());
    }

    @Test
    void retentionKeepsAnOldRegistrationThatHeartbeatedRecently() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        Registration daemon = RowBuilder.registered(MERGER, 41500).at(old).registration();
        writer.register(daemon, Optional.empty());
        assertTrue(writer.heartbeat(daemon.runtimeId(), NOW.minusSeconds(30)));

        writer.register(RowBuilder.registered(AUTHOR, 41501).at(NOW).registration(), WEEK);

        assertEquals(List.of(41500L, 41501L), pids(), "a long-running server must never vanish");
    }

    @Test
    void retentionIsSkippedWhenNotRequested() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        writer.register(RowBuilder.registered(MERGER, 41600).at(old).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41601).at(NOW).registration(), Optional.empty());

        assertEquals(List.of(41600L, 41601L), pids());
    }

    @Test
    void retentionComparesInstantsWhateverFormatOtherWritersUsed() throws Exception {
        writer.migrate();
        // The cutoff is 2026-08-03T12:00:00Z. Expired, in whole seconds and with a +00:00 offset:
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-old-z", 41700, "2026-07-01T00:00:00Z"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-old-offset", 41701, "2026-07-01T00:00:00+00:00"));
        // Heartbeat text sorts after the cutoff, but the instant (11:00Z) is before it: expired.
        Map<String, Object> lateText = RawSqlite.otherWriterRow("rt-late-text", 41702, "2026-07-01T00:00:00Z");
        lateText.put("last_heartbeat_at", "2026-08-03T13:00:00+02:00");
        RawSqlite.insertRuntime(file, lateText);
        // Text sorts before the cutoff, but the instant (14:00Z) is within the window: kept.
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-early-text", 41703, "2026-08-03T10:00:00-04:00"));
        // Unparseable timestamps cannot be judged old: the row stays, and reads as malformed.
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-garbled", 41704, "not-a-time"));
        // Registered long ago, heartbeated an hour ago in +00:00 style: kept.
        Map<String, Object> alive = RawSqlite.otherWriterRow("rt-alive", 41705, "2026-07-01T00:00:00+00:00");
        alive.put("last_heartbeat_at", "2026-08-10T11:00:00+00:00");
        RawSqlite.insertRuntime(file, alive);

        writer.register(RowBuilder.registered(REVIEWER, 41709).at(NOW).registration(), WEEK);

        assertEquals(List.of(41703L, 41704L, 41705L, 41709L), pids());
    }

    @Test
    void heartbeatAdvancesOnlyLastHeartbeatAt() {
        Registration registration = RowBuilder.registered(AUTHOR, 41800).registration();
        writer.register(registration, Optional.empty());
        Instant beat = RowBuilder.REGISTERED.plusSeconds(90);

        assertTrue(writer.heartbeat(registration.runtimeId(), beat));

        assertEquals(List.of(registration.withLastHeartbeatAt(beat).toRow()), reader.readAll().rows());
    }

    @Test
    void aHeartbeatForAnUnknownRuntimeChangesNothingAndSaysSo() throws Exception {
        writer.register(RowBuilder.registered(AUTHOR, 41900).registration(), Optional.empty());
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);

        assertFalse(writer.heartbeat("does-not-exist", NOW));

        assertEquals(before, RawSqlite.dump(file));
    }

    @Test
    void markStoppedSetsStatusAndStoppedAt() throws Exception {
        Registration registration = RowBuilder.registered(AUTHOR, 42000).registration();
        writer.register(registration, Optional.empty());
        Instant stoppedAt = RowBuilder.REGISTERED.plusSeconds(600);

        assertTrue(writer.markStopped(registration.runtimeId(), stoppedAt));

        assertEquals(List.of(registration.withStatus(RegistrationStatus.STOPPED, stoppedAt).toRow()),
                reader.readAll().rows());
        assertEquals(List.of(List.of("stopped", Timestamps.format(stoppedAt))),
                RawSqlite.query(file, "SELECT status, stopped_at FROM mcp_server_runtimes"));
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);
        assertFalse(writer.markStopped("does-not-exist", stoppedAt));
        assertEquals(before, RawSqlite.dump(file));
    }

    @Test
    void aStopWaitsForABusyRegistryOnlyBrieflyWhateverTheRegistrationTimeout() throws Exception {
        // The contract 7: a server is gone within 2 s of losing its client, so a stop cannot queue for long
        // behind another writer, even on a writer configured to wait 30 s to register.
        SqliteRegistryWriter patient = new SqliteRegistryWriter(file, () -> NOW, Duration.ofSeconds(30));
        Registration registration = RowBuilder.registered(AUTHOR, 42300).registration();
        patient.register(registration, Optional.empty());
        try (java.sql.Connection holder = RawSqlite.open(file);
                java.sql.Statement statement = holder.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("UPDATE mcp_server_runtimes SET last_heartbeat_at = last_heartbeat_at");

            RegistryStorageException busy = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(10), () -> assertThrows(RegistryStorageException.class,
                            () -> patient.markStopped(registration.runtimeId(), NOW)));
            assertTrue(busy.getMessage().contains("mark stopped"), busy.getMessage());
            statement.execute("ROLLBACK");
        }
        assertTrue(patient.markStopped(registration.runtimeId(), NOW), "and it succeeds once the lock is gone");
    }

    @Test
    void neitherHeartbeatNorStopBringsADeletedRegistryBack() {
        Path gone = dir.resolve("removed/control_plane.sqlite3");
        SqliteRegistryWriter orphan = new SqliteRegistryWriter(gone, () -> NOW, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);

        assertFalse(orphan.heartbeat("rt-any", NOW));
        assertFalse(orphan.markStopped("rt-any", NOW));

        assertFalse(java.nio.file.Files.exists(gone.getParent()), "nothing was created");
    }

    @Test
    void registeringTheSameRuntimeAgainUpdatesItsRowInPlace() {
        Registration first = RowBuilder.registered(AUTHOR, 42100).registration();
        writer.register(first, Optional.empty());
        writer.markStopped(first.runtimeId(), RowBuilder.REGISTERED.plusSeconds(5));
        Registration again = RowBuilder.registered(AUTHOR, 42100).at(RowBuilder.REGISTERED.plusSeconds(10)).registration();

        assertEquals(again, writer.register(again, Optional.empty()));

        assertEquals(List.of(again.toRow()), reader.readAll().rows());
    }

    @Test
    void aNonPositiveRetentionWindowIsRejected() {
        Registration registration = RowBuilder.registered(AUTHOR, 42200).registration();
        assertThrows(IllegalArgumentException.class,
                () -> writer.register(registration, Optional.of(Duration.ZERO)));
        assertThrows(IllegalArgumentException.class,
                () -> writer.register(registration, Optional.of(Duration.ofDays(-1))));
    }

    /** Why a registration with this identity cannot even be built, so no writer ever sees it. */
    private static String rejection(String runtimeId, String namespace, long pid) {
        Registration sound = RowBuilder.registered(AUTHOR, 43000).registration();
        return assertThrows(IllegalArgumentException.class, () -> sound.toBuilder().runtimeId(runtimeId)
                .identity(new RosterMember(namespace, sound.profile(), sound.role())).pid(pid).build()).getMessage();
    }

    private List<Long> pids() {
        return reader.readAll().rows().stream().map(RegistryRow::pid).sorted().toList();
    }

    private static RosterMember member(String role) {
        return ROSTER.members().stream().filter(member -> member.role().equals(role)).findFirst().orElseThrow();
    }
}
