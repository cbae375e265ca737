package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.cli.testing.VerdictShape;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's registry of thousands of stale rows, built here and assessed by the real jar (rows
 * naming processes that are no servers: {@link AssessIT}).
 */
@EnabledOnOs(OS.LINUX)
class UnbelievableEvidenceIT {

    @TempDir
    Path dir;

    static Registration row(RosterMember member, String runtimeId, long pid, Instant registered,
            String bootId) {
        return Registration.builder().runtimeId(runtimeId).identity(member).binding(Binding.DEFAULT)
                .repositoryRoot("/checkout").pid(pid).cohort("it-cohort", CohortSource.ENV)
                .clientProvenance(ClientProvenance.CLIENT_MANAGED).bootId(bootId)
                .startupHead(TestFleets.HEAD).transport(Transport.STDIO).status(RegistrationStatus.RUNNING)
                .registeredAt(registered).lastHeartbeatAt(registered).build();
    }

    /** The probe: 100k stale rows made a 40 MB answer; every list is cut at 100, and says so. */
    @Test
    void thousandsOfStaleRowsGiveABoundedAnswerWhateverTheirPhysicalOrder() throws Exception {
        int rows = 20_000;
        Path forward = staleRegistry("forward.sqlite3", IntStream.range(0, rows).boxed().toList());
        Path backward = staleRegistry("backward.sqlite3",
                IntStream.range(0, rows).map(i -> rows - 1 - i).boxed().toList());

        // One roster that no process on the host matches: other fleets' servers must not move the digest.
        String roster = TestFleets.roster(forward).toString();
        FleetJar.Run first = FleetJar.run("assess", "--registry", forward.toString(), "--roster", roster,
                "--format", "json");
        FleetJar.Run second = FleetJar.run("assess", "--registry", backward.toString(), "--roster", roster,
                "--format", "json");

        JsonNode verdict = first.stdoutJson();
        assertEquals(List.of(), VerdictShape.problems(verdict));
        assertTrue(first.stdout().length() < 200_000, "an answer of " + first.stdout().length() + " chars");
        assertEquals(100, verdict.get("stale_registrations").size());
        assertEquals(rows - 100, verdict.at("/omitted_entries/stale_registrations").asInt(), verdict.toString());
        assertEquals(rows, verdict.at("/registry/registration_count").asInt());
        assertEquals(verdict.get("verdict_digest"), second.stdoutJson().get("verdict_digest"));
    }

    /** Running rows from a previous boot (stale whatever their pids name now), inserted in {@code order}. */
    private Path staleRegistry(String name, List<Integer> order) throws Exception {
        Path registry = dir.resolve(name);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        Instant registered = Instant.parse("2026-07-28T02:00:00Z");
        writer.register(row(Roster.defaultRoster().members().get(0), "rt-seed", 1, registered, "b"), Optional.empty());
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry)) {
            connection.setAutoCommit(false);
            connection.createStatement().execute("DELETE FROM mcp_server_runtimes");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO mcp_server_runtimes "
                    + "(runtime_id, namespace, profile, role, remote, org, repo, pid, cohort_id, cohort_source, "
                    + "boot_id, startup_head, status, registered_at, last_heartbeat_at) "
                    + "VALUES (?, 'gitea-author', 'prgs-author', 'author', 'prgs', 'Scaled-Tech-Consulting', "
                    + "'Gitea-Tools', ?, 'it-cohort', 'env', 'boot-before-reboot', ?, 'running', "
                    + "'2026-07-28T02:00:00.000Z', '2026-07-28T02:00:00.000Z')")) {
                for (int i : order) {
                    insert.setString(1, String.format("rt-%06d", i));
                    insert.setLong(2, 1_000 + i % 30_000);
                    insert.setString(3, TestFleets.HEAD);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
        return registry;
    }
}
