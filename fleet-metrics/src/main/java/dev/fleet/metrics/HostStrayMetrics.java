package dev.fleet.metrics;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostServer;
import dev.fleet.domain.host.ServerState;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fleet_host_strays{client,state}}: the strays of {@code fleet host} (docs/CONTRACT.md, "Every MCP
 * server on this host") counted by their client's kind and their state. One series for every kind and
 * every stray state, 0 where none, so an absent series never hides one; {@code client} is a kind's
 * label, {@value #OTHER} for a live client of no known kind and {@value #NONE} for a stray whose client is
 * gone: never a pid, which would make a new series at every start.
 */
final class HostStrayMetrics {

    static final String OTHER = "other";
    static final String NONE = "none";

    private HostStrayMetrics() {
    }

    static GaugeSnapshot of(HostReport report) {
        Map<List<String>, Integer> counts = new HashMap<>();
        for (HostServer server : report.servers()) {
            if (server.state().stray()) {
                counts.merge(List.of(client(server), server.state().label()), 1, Integer::sum);
            }
        }
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("fleet_host_strays")
                .help("Stray MCP server processes on this host (fleet host), by client kind and state.");
        for (String client : clients()) {
            for (ServerState state : ServerState.values()) {
                if (state.stray()) {
                    family.dataPoint(GaugeDataPointSnapshot.builder()
                            .labels(Labels.of("client", client, "state", state.label()))
                            .value(counts.getOrDefault(List.of(client, state.label()), 0)).build());
                }
            }
        }
        return family.build();
    }

    private static List<String> clients() {
        List<String> clients = new ArrayList<>();
        for (ClientKind kind : ClientKind.values()) {
            clients.add(kind.label());
        }
        clients.add(OTHER);
        clients.add(NONE);
        return clients;
    }

    /** The label of a stray's client: its kind, or what says it has none or an unknown one. */
    private static String client(HostServer server) {
        if (server.clientPid() == null) {
            return NONE;
        }
        return server.clientKind() != null && ClientKind.ofLabel(server.clientKind()).isPresent()
                ? server.clientKind() : OTHER;
    }
}
