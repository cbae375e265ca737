package dev.fleet.registry.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.domain.port.out.RegistryWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry's contract (docs/CONTRACT.md: registration, heartbeat, stop, retention, superseding and
 * the list's order), one suite run against every engine: each adapter's test extends it with a fresh,
 * empty registry per test. Only what an engine decides itself differs, and is said here: on
 * PostgreSQL {@code last_heartbeat_at} is the database's clock, so it is compared as "not earlier".
 *
 * <p>An engine's test says only where a fresh registry is ({@code L}: a file, a database), how its
 * writer and reader open one there, and how to reach it over plain JDBC; opening them per test and
 * ageing rows by SQL is the same for every engine, so it is done here once.
 *
 * @param <L> where an engine's registry is
 */
public abstract class RegistryContract<L> {

    private static final List<RosterMember> MEMBERS = Roster.defaultRoster().members();
    private static final String HOST = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f";
    private static final String OTHER_HOST = "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0";

    private final Function<L, RegistryWriter> writers;
    private final Function<L, RegistryListing> readers;
    private L registry;

    /** {@code writers} and {@code readers} open the engine's writer and reader on a registry. */
    protected RegistryContract(Function<L, RegistryWriter> writers, Function<L, RegistryListing> readers) {
        this.writers = Objects.requireNonNull(writers, "writers");
        this.readers = Objects.requireNonNull(readers, "readers");
    }

    /** Where this test's registry will be: fresh and empty. */
    protected abstract L freshRegistry();

    /** A plain JDBC connection to {@code registry}, to change rows as no writer would. */
    protected abstract Connection connect(L registry) throws SQLException;

    @BeforeEach
    void openFreshRegistry() {
        registry = freshRegistry();
    }

    private RegistryWriter writer() {
        return writers.apply(registry);
    }

    private RegistryListing reader() {
        return readers.apply(registry);
    }

    /** Sets a row's two timestamps directly, as an old row would have them. */
    private void age(String runtimeId, Instant registeredAt, Instant lastHeartbeatAt) throws SQLException {
        try (Connection connection = connect(registry);
                PreparedStatement update = connection.prepareStatement("UPDATE mcp_server_runtimes SET registered_at = ?, "
                        + "last_heartbeat_at = ? WHERE runtime_id = ?")) {
            update.setString(1, Timestamps.format(registeredAt));
            update.setString(2, Timestamps.format(lastHeartbeatAt));
            update.setString(3, runtimeId);
            update.executeUpdate();
        }
    }

    private static Registration registration(RosterMember member, long pid, Consumer<RowBuilder> change) {
        return RowBuilder.registered(member, pid).with(row -> row.hostId = HOST).with(change).registration();
    }

    private List<RegistryRow> rows() {
        return reader().readAll().rows();
    }

    private RegistryRow only(String runtimeId) {
        return rows().stream().filter(row -> row.runtimeId().equals(runtimeId)).findFirst().orElseThrow();
    }

    /** Every column but the heartbeat, which an engine may take from its own clock. */
    private static RegistryRow withoutHeartbeat(RegistryRow row) {
        return RowBuilder.from(row).with(r -> r.lastHeartbeatAt = null).build();
    }

    @Test
    void everyFieldRoundTripsByName() {
        Registration sent = registration(MEMBERS.get(0), 4100, row -> row.endpoint = "http://127.0.0.1:1/mcp");
        Registration stored = writer().register(sent, Optional.empty());

        assertEquals(withoutHeartbeat(sent.toRow()), withoutHeartbeat(stored.toRow()));
        assertEquals(withoutHeartbeat(sent.toRow()), withoutHeartbeat(only(sent.runtimeId())));
        assertEquals(HOST, only(sent.runtimeId()).hostId());
    }

    /** The server a member wraps (schema version 7's columns) round-trips by name. */
    @Test
    void theWrappedServerRoundTripsByName() {
        Registration sent = registration(MEMBERS.get(0), 4500, row -> row.wraps("uvx gitea-mcp --api-key ***", 4501,
                RowBuilder.REGISTERED.minusMillis(900)));
        Registration stored = writer().register(sent, Optional.empty());

        assertEquals(withoutHeartbeat(sent.toRow()), withoutHeartbeat(stored.toRow()));
        RegistryRow read = only(sent.runtimeId());
        assertEquals("uvx gitea-mcp --api-key ***", read.serverCommand());
        assertEquals(4501L, read.serverPid());
        assertEquals("2026-07-28T01:59:59.350Z", read.serverStartedAt());
    }

    /**
     * A table a version 6 writer made (or another tool, without this project's newest columns): its rows read
     * the wrapped server's columns as NULL and every other column as before.
     */
    @Test
    void aTableWithoutTheWrappedServersColumnsReadsThemAsNull() throws SQLException {
        Registration sent = writer().register(registration(MEMBERS.get(1), 4510, row -> row.wraps("python3 srv.py",
                4511, RowBuilder.REGISTERED)), Optional.empty());
        try (Connection connection = connect(registry)) {
            for (String column : List.of("server_command", "server_pid", "server_started_at")) {
                try (PreparedStatement drop = connection.prepareStatement(
                        "ALTER TABLE mcp_server_runtimes DROP COLUMN " + column)) {
                    drop.executeUpdate();
                }
            }
        }

        RegistryRow read = only(sent.runtimeId());

        assertEquals(withoutHeartbeat(sent.toBuilder().server(null, null, null).build().toRow()),
                withoutHeartbeat(read));
    }

    @Test
    void theFiveMembersRegisterIndependentlyAndListInOrder() {
        for (int i = MEMBERS.size() - 1; i >= 0; i--) {
            int index = i;
            writer().register(registration(MEMBERS.get(i), 4100 + i, row -> row.at(
                    RowBuilder.REGISTERED.plusSeconds(index))), Optional.empty());
        }
        assertEquals(MEMBERS.stream().map(RosterMember::profile).toList(),
                rows().stream().map(RegistryRow::profile).toList());
    }

    @Test
    void aHeartbeatAdvancesOnlyLastHeartbeatAtAndAnUnknownIdChangesNothing() {
        Registration sent = writer().register(registration(MEMBERS.get(1), 4101, row -> { }), Optional.empty());
        RegistryRow before = only(sent.runtimeId());

        assertTrue(writer().heartbeat(sent.runtimeId(), RowBuilder.REGISTERED.plusSeconds(30)));
        RegistryRow after = only(sent.runtimeId());
        assertEquals(withoutHeartbeat(before), withoutHeartbeat(after));
        assertFalse(Timestamps.parse(after.lastHeartbeatAt()).orElseThrow()
                .isBefore(Timestamps.parse(before.lastHeartbeatAt()).orElseThrow()));

        assertFalse(writer().heartbeat("rt-nobody", RowBuilder.REGISTERED.plusSeconds(60)));
        assertEquals(List.of(after), rows());
    }

    @Test
    void aStopMarksTheRowStoppedAtTheInstantGiven() {
        Registration sent = writer().register(registration(MEMBERS.get(2), 4102, row -> { }), Optional.empty());
        Instant at = RowBuilder.REGISTERED.plusSeconds(90);

        assertTrue(writer().markStopped(sent.runtimeId(), at));
        RegistryRow stopped = only(sent.runtimeId());
        assertEquals("stopped", stopped.status());
        assertEquals(Timestamps.format(at), stopped.stoppedAt());
        assertEquals(List.of(), reader().read(RegistrationStatus.RUNNING).rows());
        assertEquals(1, reader().read(RegistrationStatus.STOPPED).rows().size());
        assertFalse(writer().markStopped("rt-nobody", at));
    }

    @Test
    void registeringOnAReusedPidSupersedesOnlyThatHostsRowOnIt() {
        Registration old = writer().register(registration(MEMBERS.get(0), 4200, row -> { }), Optional.empty());
        Registration elsewhere = writer().register(registration(MEMBERS.get(3), 4200, row -> {
            row.runtimeId = "rt-other-host";
            row.hostId = OTHER_HOST;
        }), Optional.empty());
        Registration otherPid = writer().register(registration(MEMBERS.get(1), 4201, row -> { }), Optional.empty());

        Registration fresh = writer().register(registration(MEMBERS.get(2), 4200, row -> row.runtimeId = "rt-new"),
                Optional.empty());

        List<String> ids = rows().stream().map(RegistryRow::runtimeId).sorted().toList();
        assertFalse(ids.contains(old.runtimeId()));
        assertEquals(List.of(otherPid.runtimeId(), fresh.runtimeId(), elsewhere.runtimeId()).stream().sorted().toList(),
                ids);
    }

    @Test
    void registeringTheSameRuntimeAgainUpdatesItsRowInPlace() {
        Registration first = writer().register(registration(MEMBERS.get(4), 4300, row -> { }), Optional.empty());
        writer().register(registration(MEMBERS.get(4), 4300, row -> row.startupHead = "ffff"), Optional.empty());

        assertEquals(1, rows().size());
        assertEquals("ffff", only(first.runtimeId()).startupHead());
    }

    @Test
    void retentionDropsOnlyRowsOldOnBothTimestampsAndOnlyWhenAsked() throws Exception {
        Instant now = Instant.now(); // retention is measured from the writer's clock
        Registration old = writer().register(registration(MEMBERS.get(0), 4400, row -> { }), Optional.empty());
        Registration heartbeating = writer().register(registration(MEMBERS.get(1), 4401, row -> { }),
                Optional.empty());
        age(old.runtimeId(), now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(9)));
        age(heartbeating.runtimeId(), now.minus(Duration.ofDays(10)), now.minus(Duration.ofHours(1)));

        writer().register(registration(MEMBERS.get(2), 4402, row -> row.at(now)), Optional.empty());
        assertEquals(3, rows().size(), "no retention unless a window is passed");

        writer().register(registration(MEMBERS.get(3), 4403, row -> row.at(now)),
                Optional.of(RegistryWriter.DEFAULT_RETENTION));
        List<String> ids = rows().stream().map(RegistryRow::runtimeId).toList();
        assertFalse(ids.contains(old.runtimeId()));
        assertTrue(ids.contains(heartbeating.runtimeId()), "a row that heartbeated within the window is kept");
        assertEquals(3, ids.size(), "the two rows registered now stay");
    }
}
