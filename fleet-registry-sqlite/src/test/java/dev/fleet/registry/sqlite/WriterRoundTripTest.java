package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the writer registers is what the reader reads back, every column (unknown ones as NULL), one
 * row a runtime: a runtime registered again updates its row, a reused pid replaces the stale one.
 */
class WriterRoundTripTest extends RegistryWriterFixture {

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
            assertEquals(-1L, reader.readAll().rows().get(0).parentPid(), stored);
        }
        RawSqlite.execute(file, "UPDATE mcp_server_runtimes SET parent_pid = NULL");
        assertNull(reader.readAll().rows().get(0).parentPid(), "NULL is unknown");
    }

    /**
     * The wrapped server's columns (schema version 7) round-trip, its pid stored as an INTEGER; a server pid
     * another tool stored as text, REAL or BLOB names no process and reads as -1, like a parent's (never as unknown:
     * the domain then counts the server exited, not the row a plain member's).
     */
    @Test
    void theWrappedServerRoundTripsAndOnlyAnIntegerNamesIt() throws Exception {
        Registration wrapping = RowBuilder.registered(AUTHOR, 41006)
                .wraps("npx -y @acme/gitea-mcp --token ***", 41007, Instant.parse("2026-07-28T01:59:59.250Z"))
                .registration();

        assertEquals(wrapping, writer.register(wrapping, Optional.empty()));
        assertEquals(List.of(wrapping.toRow()), reader.readAll().rows());
        assertEquals(List.of(List.of("npx -y @acme/gitea-mcp --token ***", "integer", "2026-07-28T01:59:59.250Z")),
                RawSqlite.query(file, "SELECT server_command, typeof(server_pid), server_started_at FROM mcp_server_runtimes"));

        for (String stored : List.of("'41007 (child)'", "41007.5", "x'3431303037'")) {
            RawSqlite.execute(file, "UPDATE mcp_server_runtimes SET server_pid = " + stored);
            assertEquals(-1L, reader.readAll().rows().get(0).serverPid(), stored);
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
    void registeringTheSameRuntimeAgainUpdatesItsRowInPlace() {
        Registration first = RowBuilder.registered(AUTHOR, 42100).registration();
        writer.register(first, Optional.empty());
        writer.markStopped(first.runtimeId(), RowBuilder.REGISTERED.plusSeconds(5));
        Registration again = RowBuilder.registered(AUTHOR, 42100).at(RowBuilder.REGISTERED.plusSeconds(10)).registration();

        assertEquals(again, writer.register(again, Optional.empty()));

        assertEquals(List.of(again.toRow()), reader.readAll().rows());
    }
}
