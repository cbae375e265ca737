package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Registration registration(RosterMember member, long pid, Instant at) {
        return Registration.builder().runtimeId("rt-" + pid).identity(member).binding(Binding.DEFAULT)
                .repositoryRoot("/checkout").pid(pid).cohort("cohort", CohortSource.ENV)
                .clientProvenance(ClientProvenance.CLIENT_MANAGED).startupHead("abc123").transport(Transport.STDIO)
                .status(RegistrationStatus.RUNNING).registeredAt(at).lastHeartbeatAt(at).build();
    }

    @Test
    void migrateCreatesTheFileThenListShowsNoRows() {
        Path registry = dir.resolve("control_plane.sqlite3");

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        FleetJar.Run again = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", registry.toString());
        FleetJar.Run json = FleetJar.run("registry", "list", "--registry", registry.toString(), "--format", "json");

        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertEquals("registry " + registry + " at schema version 7\n", migrate.stdout());
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(Files.isRegularFile(registry));
        assertEquals(0, list.exitCode(), list.stderr());
        assertTrue(list.stdout().contains("0 rows in " + registry), list.stdout());
        assertEquals("{\"registry\":\"" + registry + "\",\"rows\":[]}\n", json.stdout());
    }

    @Test
    void listShowsEveryRowOldestFirstAndFiltersByStatus() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        Roster roster = Roster.defaultRoster();
        writer.register(registration(roster.members().get(1), 502, Instant.parse("2026-07-28T02:00:01Z")),
                Optional.empty());
        writer.register(registration(roster.members().get(0), 501, Instant.parse("2026-07-28T02:00:00Z")),
                Optional.empty());
        writer.markStopped("rt-502", Instant.parse("2026-07-28T03:00:00Z"));

        JsonNode all = JSON.readTree(FleetJar.run("registry", "list", "--registry", registry.toString(),
                "--format", "json").stdout());
        JsonNode stopped = JSON.readTree(FleetJar.run(Map.of("FLEET_REGISTRY", registry.toString()),
                "registry", "list", "--status", "stopped", "--format", "json").stdout());
        FleetJar.Run text = FleetJar.run("registry", "list", "--registry", registry.toString(), "--status", "running");

        assertEquals(registry.toString(), all.get("registry").asText());
        assertEquals(2, all.get("rows").size());
        assertEquals("rt-501", all.get("rows").get(0).get("runtime_id").asText());
        assertEquals("2026-07-28T02:00:00.000Z", all.get("rows").get(0).get("registered_at").asText());
        assertEquals("Scaled-Tech-Consulting", all.get("rows").get(0).get("org").asText());
        assertEquals(1, stopped.get("rows").size());
        assertEquals("rt-502", stopped.get("rows").get(0).get("runtime_id").asText());
        assertEquals("2026-07-28T03:00:00.000Z", stopped.get("rows").get(0).get("stopped_at").asText());
        assertTrue(text.stdout().contains("rt-501"), text.stdout());
        assertFalse(text.stdout().contains("rt-502"), text.stdout());
        assertTrue(text.stdout().endsWith("\n1 row in " + registry + "\n"), text.stdout());

        List<String> table = FleetJar.run("registry", "list", "--registry", registry.toString(), "--wide").stdout()
                .lines().toList();
        assertTrue(table.get(0).matches(".*  LAST_HEARTBEAT_AT +STOPPED_AT"), table.get(0));
        assertTrue(table.get(1).startsWith("rt-501") && table.get(1).endsWith("  -"), table.get(1));
        assertTrue(table.get(2).startsWith("rt-502") && table.get(2).endsWith("  2026-07-28T03:00:00.000Z"),
                table.get(2));
        assertEquals("2 rows in " + registry, table.get(3));
    }

    @Test
    void theDefaultPathFollowsXdgStateHome() {
        FleetJar.Run migrate = FleetJar.run(Map.of("XDG_STATE_HOME", dir.toString()), "registry", "migrate");
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertTrue(Files.isRegularFile(dir.resolve("gitea-tools/control_plane.sqlite3")));
    }

    @Test
    void listingAMissingRegistryFailsInOneLineAndCreatesNothing() {
        Path missing = dir.resolve("missing.sqlite3");
        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", missing.toString());
        assertEquals(1, list.exitCode());
        assertEquals("fleet: registry " + missing + " unreadable: missing\n", list.stderr());
        assertFalse(Files.exists(missing));
    }

    @Test
    void migratingWhereNoFileCanBeMadeFailsInOneLine() {
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", "/proc/no-such-dir/r.sqlite3");
        assertEquals(2, migrate.exitCode());
        assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
        assertTrue(migrate.stderr().startsWith("fleet: registry "), migrate.stderr());
    }

    /** The default text fits 100 columns whatever the rows hold, and says whether a running row's pid is alive. */
    @Test
    void theTextFitsOneHundredColumnsAndShowsWhetherEachRunningPidIsAlive() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String longText = "x".repeat(300);
        RosterMember wide = new RosterMember("ns-" + longText, "profile-" + longText, "role");
        writer.register(registration(wide, ProcessHandle.current().pid(), Instant.parse("2026-07-28T02:00:00Z"))
                .toBuilder().runtimeId("rt-alive-" + longText).build(), Optional.empty());
        writer.register(registration(Roster.defaultRoster().members().get(0), gone.pid(),
                Instant.parse("2026-07-28T02:00:01Z")), Optional.empty());
        writer.register(registration(Roster.defaultRoster().members().get(1), 503,
                Instant.parse("2026-07-28T02:00:02Z")), Optional.empty());
        writer.markStopped("rt-503", Instant.parse("2026-07-28T03:00:00Z"));

        List<String> table = FleetJar.run("registry", "list", "--registry", registry.toString()).stdout().lines()
                .toList();
        List<String> wideTable = FleetJar.run("registry", "list", "--registry", registry.toString(), "--wide")
                .stdout().lines().toList();

        assertTrue(table.get(0).matches("RUNTIME_ID  NAMESPACE +PROFILE +PID +ALIVE  STATUS   LAST_HEARTBEAT_AT"),
                table.get(0));
        for (String line : table.subList(0, 4)) {
            assertTrue(line.length() <= 100, line.length() + " columns: " + line);
        }
        assertTrue(table.get(1).matches("rt-alive-…  ns-x{12}…  profile-x{7}…  \\d+ +yes    running  .*"), table.get(1));
        assertTrue(table.get(2).matches("rt-" + gone.pid() + " +gitea-author +prgs-author +\\d+ +no     running  .*"),
                table.get(2));
        assertTrue(table.get(3).matches("rt-503 +gitea-reviewer +prgs-reviewer +503 +-      stopped  .*"), table.get(3));
        assertTrue(wideTable.get(1).contains("rt-alive-" + longText), "--wide shows every value whole");
        assertTrue(wideTable.get(0).endsWith("STOPPED_AT"), wideTable.get(0));
    }
}
