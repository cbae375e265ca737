package dev.fleet.domain.host;

import java.util.List;

/**
 * What {@code fleet host} reports of one snapshot (the contract, §14): its JSON is
 * {@code {"clients": [...], "servers": [...], "strays": N, "warnings": [...]}}, the same bytes for the
 * same snapshot.
 */
public record HostReport(List<HostClient> clients, List<HostServer> servers, int strays, List<String> warnings) {

    public HostReport {
        clients = List.copyOf(clients);
        servers = List.copyOf(servers);
        warnings = List.copyOf(warnings);
    }
}
