package dev.fleet.domain.host;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The report made of what the classification found, in its one order (the contract, §14: the same
 * snapshot gives the same bytes):
 * <ul>
 *   <li>clients by kind label (unknown kinds last), then start, then pid;</li>
 *   <li>servers by their client's place in that list (servers without a client last), then entry file,
 *       then entry name (no entry last), then start, then root pid: the root pid is unique, so the
 *       order is total.</li>
 * </ul>
 * A client's project is its servers' entries' one project, where they name exactly one. Each stray
 * carries its stop line ({@link StopLine}) over its tree's pids with the start each was observed with,
 * and the stop script ({@link StopScript}) names the strays in the servers' order. A stray whose line
 * cannot be guarded (an unknown boot id, a process without a start) is still a stray, its line one that
 * signals nothing ({@link StopLine#UNKNOWN_BOOT}, {@link StopLine#UNGUARDED}), with one warning saying why:
 * a line that might signal another process is worse than none.
 */
final class ReportAssembly {

    /** The start as the report shows it: ISO-8601, UTC, to the second. */
    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private static final Comparator<HostProcess> CLIENT_ORDER = Comparator
            .comparing((HostProcess client) -> ClientKinds.of(client.argv()),
                    Comparator.nullsLast(Comparator.comparing(ClientKind::label)))
            .thenComparingLong(HostProcess::startTicks)
            .thenComparingLong(HostProcess::pid);

    private ReportAssembly() {
    }

    static HostInventory assemble(List<Found> found, ProcessForest forest, String bootId, List<String> warnings,
            boolean processTableRead) {
        List<HostProcess> clientProcesses = found.stream().map(Found::client).filter(Objects::nonNull)
                .map(HostProcess::pid).distinct().map(forest::get).sorted(CLIENT_ORDER).toList();
        Map<Long, Integer> place = new HashMap<>();
        List<HostClient> clients = new ArrayList<>();
        for (HostProcess client : clientProcesses) {
            place.put(client.pid(), clients.size());
            clients.add(client(client, found));
        }
        List<Found> ordered = new ArrayList<>(found);
        ordered.sort(Comparator
                .comparing((Found server) -> server.client() == null ? Integer.MAX_VALUE : place.get(server.client().pid()))
                .thenComparing(server -> server.entry().configFile(), Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(server -> server.entry().name(), Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparingLong(server -> server.root().startTicks())
                .thenComparingLong(server -> server.root().pid()));
        List<HostServer> servers = new ArrayList<>();
        List<StopScript.Stray> strays = new ArrayList<>();
        List<Long> unguarded = new ArrayList<>();
        for (Found server : ordered) {
            String stop = null;
            if (server.state().stray()) {
                List<StopTarget> targets = server.pids().stream()
                        .map(pid -> new StopTarget(pid, forest.get(pid).startTicks())).toList();
                stop = StopLine.of(bootId, targets);
                if (targets.stream().allMatch(StopLine::guardable)) {
                    strays.add(new StopScript.Stray(server.state().label(), clientLabel(server.client()),
                            server.entry().name() == null ? "(no entry)" : server.entry().name(),
                            server.root().shownCommandLine(), targets));
                } else {
                    unguarded.add(server.root().pid());
                }
            }
            servers.add(new HostServer(server.client() == null ? null : kindLabel(server.client()),
                    server.client() == null ? null : server.client().pid(), server.entry().configFile(),
                    server.entry().name(), server.state(), server.pids(), server.root().pid(),
                    server.root().startTicks(), startedAt(server.root().startedAt()), memory(server, forest), stop));
        }
        List<String> allWarnings = new ArrayList<>(warnings);
        if (StopLine.guardableBoot(bootId) == null && servers.stream().anyMatch(server -> server.state().stray())) {
            allWarnings.add("no stop line signals anything: the boot id is unknown, so a pid and its start could name another process");
        }
        unguarded.forEach(pid -> allWarnings.add("the stop line of the stray at pid " + pid + " signals nothing"
                + ": a process of its tree has no start to check before signalling"));
        long strayCount = servers.stream().filter(server -> server.state().stray()).count();
        HostReport report = new HostReport(clients, servers, (int) strayCount, allWarnings);
        return new HostInventory(report, StopScript.of(bootId, strays), processTableRead);
    }

    private static HostClient client(HostProcess client, List<Found> found) {
        TreeSet<String> projects = new TreeSet<>();
        found.stream().filter(server -> server.client() != null && server.client().pid() == client.pid())
                .map(server -> server.entry().project()).filter(Objects::nonNull).forEach(projects::add);
        return new HostClient(kindLabel(client), client.pid(), client.startTicks(), startedAt(client.startedAt()),
                client.shownCommandLine(), projects.size() == 1 ? projects.first() : null);
    }

    private static String kindLabel(HostProcess client) {
        ClientKind kind = ClientKinds.of(client.argv());
        return kind == null ? null : kind.label();
    }

    private static String clientLabel(HostProcess client) {
        if (client == null) {
            return "(no client)";
        }
        String kind = kindLabel(client);
        return (kind == null ? "client" : kind) + " " + client.pid();
    }

    private static long memory(Found server, ProcessForest forest) {
        return server.pids().stream().mapToLong(pid -> Math.max(0, forest.get(pid).memoryBytes())).sum();
    }

    static String startedAt(Instant instant) {
        return instant == null ? null : SECONDS.format(instant);
    }
}
