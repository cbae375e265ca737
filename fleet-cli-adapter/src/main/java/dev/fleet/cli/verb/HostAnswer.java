package dev.fleet.cli.verb;

import dev.fleet.domain.host.HostClient;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostServer;
import dev.fleet.domain.host.ServerState;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** What {@code fleet host} shows of a report: the servers its options ask for, as JSON or as the stop script. */
final class HostAnswer {

    private HostAnswer() {
    }

    /**
     * {@code report} with the servers asked for: unconfigured ones only with {@code --all}, strays only
     * with {@code --strays}; a client stays when a shown server is its. The count of strays is unchanged:
     * neither option hides a stray.
     */
    static HostReport shown(HostReport report, boolean straysOnly, boolean all) {
        List<HostServer> servers = report.servers().stream()
                .filter(server -> all || server.state() != ServerState.UNCONFIGURED)
                .filter(server -> !straysOnly || server.state().stray())
                .toList();
        if (servers.size() == report.servers().size()) {
            return report;
        }
        Set<Long> clients = servers.stream().map(HostServer::clientPid).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        List<HostClient> shownClients = report.clients().stream().filter(client -> clients.contains(client.pid()))
                .toList();
        return new HostReport(shownClients, servers, report.strays(), report.warnings());
    }

    static String json(HostReport report) {
        throw new UnsupportedOperationException("the domain's encoding (i53-hdomain) is merged next");
    }

    static String script(HostReport report) {
        throw new UnsupportedOperationException("the domain's stop script (i53-hdomain) is merged next");
    }
}
