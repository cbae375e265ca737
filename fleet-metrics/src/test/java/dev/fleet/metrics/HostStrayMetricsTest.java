package dev.fleet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.HostClient;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostServer;
import dev.fleet.domain.host.ServerState;
import dev.fleet.testing.Promtool;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code fleet_host_strays{client,state}}: the host's strays by client kind and state, in both expositions. */
class HostStrayMetricsTest {

    private static final String STOP = "sh -c 'true'";

    /** Two stale generations under Claude Code, a duplicate under an unknown client, an orphan, a current one. */
    static HostReport host() {
        HostClient claude = new HostClient("claude-code", 100, 5, "2026-12-05T09:00:00Z", "claude", "/p");
        HostClient other = new HostClient(null, 200, 6, "2026-12-05T09:00:00Z", "my-client", null);
        return new HostReport(List.of(claude, other), List.of(
                server("claude-code", 100L, ServerState.CURRENT, 301, null),
                server("claude-code", 100L, ServerState.STALE_GENERATION, 302, STOP),
                server("claude-code", 100L, ServerState.STALE_GENERATION, 303, STOP),
                server(null, 200L, ServerState.DUPLICATE, 304, STOP),
                server(null, null, ServerState.ORPHANED, 305, STOP),
                server(null, null, ServerState.MANUAL, 306, null)), 4, List.of());
    }

    private static HostServer server(String kind, Long client, ServerState state, long pid, String stop) {
        return new HostServer(kind, client, "/home/u/.claude.json", "github", state, List.of(pid), pid, 9,
                "2026-12-05T09:00:01Z", 1 << 20, stop);
    }

    @Test
    void everyKindAndStrayStateHasItsSeriesCountingItsStrays() {
        GaugeSnapshot family = HostStrayMetrics.of(host());
        Map<String, Double> values = new HashMap<>();
        for (GaugeDataPointSnapshot point : family.getDataPoints()) {
            values.put(point.getLabels().get("client") + "/" + point.getLabels().get("state"), point.getValue());
        }
        long strayStates = Arrays.stream(ServerState.values()).filter(ServerState::stray).count();
        assertEquals((ClientKind.values().length + 2) * strayStates, values.size(), values.toString());
        assertEquals(2, values.get("claude-code/stale_generation"));
        assertEquals(1, values.get("other/duplicate"));
        assertEquals(1, values.get("none/orphaned"));
        assertEquals(0, values.get("codex/stale_generation"));
        assertEquals(4, values.values().stream().mapToDouble(Double::doubleValue).sum(), "only strays count");
        assertFalse(values.keySet().stream().anyMatch(key -> key.endsWith("/current") || key.endsWith("/manual")));
    }

    @Test
    void theFamilyIsInTheExpositionOnlyWhenAHostReportIsGiven() {
        Fleets.Fleet fleet = Fleets.satisfied();
        String with = new String(Exposition.of(fleet.verdict(), fleet.roster(), Fleets.BUILD, host(),
                MetricsFormat.PROMETHEUS).body(), StandardCharsets.UTF_8);
        String without = new String(fleet.exposition(MetricsFormat.PROMETHEUS), StandardCharsets.UTF_8);
        assertTrue(with.contains("fleet_host_strays{client=\"claude-code\",state=\"stale_generation\"} 2"), with);
        assertFalse(without.contains("fleet_host_strays"), without);
    }

    @Test
    void bothExpositionsWithTheHostPassPromtool() throws Exception {
        Fleets.Fleet fleet = Fleets.everyAnomaly();
        for (MetricsFormat format : MetricsFormat.values()) {
            byte[] body = Exposition.of(fleet.verdict(), fleet.roster(), Fleets.BUILD, host(), format).body();
            Promtool.Check check = Promtool.checkMetrics(Promtool.require(), body);
            assertTrue(check.clean(), format + ": " + check.output() + "\n" + new String(body, StandardCharsets.UTF_8));
        }
    }
}
