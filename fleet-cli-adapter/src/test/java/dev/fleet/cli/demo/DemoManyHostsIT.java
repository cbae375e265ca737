package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.registry.postgresql.LocalPostgres;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code fleet demo}'s last step, told when {@code FLEET_DEMO_POSTGRES} names a database: two hosts
 * on one shared registry, a remote reconciler closing both gates with {@code remote_member}, and host
 * A's gate opening again once host B has stopped it. On a real PostgreSQL the test starts.
 */
class DemoManyHostsIT {

    @Test
    void theDemoTellsManyHostsOnASharedRegistry() {
        try (LocalPostgres postgres = LocalPostgres.start()) {
            String url = postgres.createDatabase("demo");
            FleetJar.Run run = FleetJar.run(Duration.ofMinutes(15), List.of(), Map.of("FLEET_DEMO_POSTGRES", url),
                    "demo");

            assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
            assertTrue(run.stdout().contains("8. Many hosts, one registry"), run.stdout());
            assertTrue(run.stdout().contains("ok   host A: remote_member"), run.stdout());
            assertTrue(run.stdout().contains("ok   host B: remote_member too"), run.stdout());
            assertTrue(run.stdout().contains("ok   host A's controller and reconciler: gate satisfied again"),
                    run.stdout());
        }
    }
}
