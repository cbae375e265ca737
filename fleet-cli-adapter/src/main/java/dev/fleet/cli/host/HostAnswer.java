package dev.fleet.cli.host;

import dev.fleet.domain.host.HostClient;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostServer;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** What {@code fleet host --strays} shows of a report. */
final class HostAnswer {

    private HostAnswer() {
    }

    /**
     * {@code report} with its strays only, and the clients they belong to; the count of strays and the
     * warnings are unchanged.
     */
    static HostReport straysOf(HostReport report) {
        List<HostServer> strays = report.servers().stream().filter(server -> server.state().stray()).toList();
        Set<Long> clients = strays.stream().map(HostServer::clientPid).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        List<HostClient> theirClients = report.clients().stream().filter(client -> clients.contains(client.pid()))
                .toList();
        return new HostReport(theirClients, strays, report.strays(), report.warnings());
    }
}
