package dev.fleet.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Promtool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both expositions pass {@code promtool check metrics}, for a satisfied fleet, for a blocked one with
 * every anomaly kind present, for an unreadable registry and for a hostile roster: any problem
 * promtool reports (a parse error, a lint finding) fails the test.
 */
class PromtoolCheckTest {

    private static Path promtool;

    @BeforeAll
    static void findPromtool() {
        promtool = Promtool.require();
    }

    @Test
    void everyFleetInEveryFormatPassesPromtool() throws Exception {
        Map<String, Fleets.Fleet> fleets = Map.of("satisfied", Fleets.satisfied(), "every anomaly", Fleets.everyAnomaly(),
                "unreadable registry", Fleets.unreadable(), "hostile profile", Fleets.hostileProfile());
        for (Map.Entry<String, Fleets.Fleet> fleet : fleets.entrySet()) {
            for (MetricsFormat format : MetricsFormat.values()) {
                byte[] body = fleet.getValue().exposition(format);
                Promtool.Check check = Promtool.checkMetrics(promtool, body);
                assertTrue(check.clean(), fleet.getKey() + " as " + format + ": promtool exited " + check.status()
                        + " saying " + check.output() + "\n" + new String(body, StandardCharsets.UTF_8));
            }
        }
    }

    /** The check can fail: promtool finds a broken line and a lint problem, so a clean answer means something. */
    @Test
    void promtoolReportsWhatIsWrong() throws Exception {
        assertFalse(Promtool.checkMetrics(promtool, "fleet_broken{code=\"x} 1\n".getBytes(StandardCharsets.UTF_8))
                .clean());
        assertFalse(Promtool.checkMetrics(promtool, "# TYPE fleet_things_total gauge\nfleet_things_total 1\n"
                .getBytes(StandardCharsets.UTF_8)).clean());
    }
}
