package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.domain.Binding;
import dev.fleet.registry.postgresql.LocalPostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code fleet demo}'s last step, told when {@code FLEET_DEMO_POSTGRES} names a database: two hosts
 * on one shared registry, a remote reconciler closing both gates with {@code remote_member}, and host
 * A's gate opening again once host B has stopped it. A database that already holds a live member of the
 * default binding cannot show that, and the step says which row is in the way. On a real PostgreSQL the
 * test starts.
 */
class DemoManyHostsIT {

    @RegisterExtension
    static final LocalPostgresServer POSTGRES = new LocalPostgresServer();

    @Test
    void theDemoTellsManyHostsOnASharedRegistry() {
        String url = POSTGRES.createDatabase("demo");
        FleetJar.Run run = demo(url);

        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("8. Many hosts, one registry"), run.stdout());
        assertTrue(run.stdout().contains("ok   the shared registry holds no live row of the default binding"),
                run.stdout());
        assertTrue(run.stdout().contains("ok   host A: remote_member"), run.stdout());
        assertTrue(run.stdout().contains("ok   host B: remote_member too"), run.stdout());
        assertTrue(run.stdout().contains("ok   host A's controller and reconciler: gate satisfied again"),
                run.stdout());
    }

    /**
     * Issue 48: a database that held a live reconciler of the default binding (another host's, or one left by
     * an earlier run) failed the step with a bare "gate satisfied again" FAIL, naming nothing. The step fails at
     * once, naming the row by the registry's columns, and starts no server on that database.
     */
    @Test
    void aLiveRowOfTheDefaultBindingIsNamedAsInTheWay() throws Exception {
        String url = POSTGRES.createDatabase("demo_in_the_way");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", url).exitCode());
        Binding binding = Binding.DEFAULT;
        try (Connection connection = POSTGRES.connect("demo_in_the_way");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO mcp_server_runtimes (runtime_id, "
                        + "namespace, profile, role, remote, org, repo, pid, cohort_source, status, registered_at, "
                        + "last_heartbeat_at, host_id) VALUES ('rt-left-running', 'gitea-reconciler', "
                        + "'prgs-reconciler', 'reconciler', ?, ?, ?, 4242, 'unknown', 'running', "
                        + "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "
                        + "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), 'host-elsewhere')")) {
            insert.setString(1, binding.remote());
            insert.setString(2, binding.org());
            insert.setString(3, binding.repo());
            insert.executeUpdate();
        }

        FleetJar.Run run = demo(url);

        assertEquals(1, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("FAIL the shared registry holds no live row of the default binding (in the "
                + "way: role reconciler, runtime_id rt-left-running, pid 4242, host_id host-elsewhere)"), run.stdout());
        assertFalse(run.stdout().contains("host A: remote_member"), "no server was started: " + run.stdout());
        assertTrue(run.stderr().contains("1 expectation(s) not met"), run.stderr());
    }

    /**
     * A value that names no database the step could use is one line and exit 2 before anything starts: it was
     * skipped without a word ({@code garbage}), or failed only at step 8, after the whole demo ({@code :99999}).
     */
    @Test
    void aSharedRegistryThatIsNoUsableUrlIsAUsageErrorBeforeAnythingStarts() {
        for (String value : List.of("garbage", "postgresql://u@h:99999/db")) {
            FleetJar.Run run = FleetJar.run(Duration.ofMinutes(2), List.of(), Map.of("FLEET_DEMO_POSTGRES", value),
                    "demo");
            assertEquals(2, run.exitCode(), value + ": " + run.stdout() + run.stderr());
            assertEquals("", run.stdout(), value);
            assertEquals(1, run.stderrLines().size(), run.stderr());
            assertTrue(run.stderr().startsWith("fleet: ") && run.stderr().contains("FLEET_DEMO_POSTGRES"), run.stderr());
        }
    }

    private static FleetJar.Run demo(String url) {
        return FleetJar.run(Duration.ofMinutes(15), List.of(), Map.of("FLEET_DEMO_POSTGRES", url), "demo");
    }
}
