package dev.fleet.cli.demo;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the demo has seen of the first client's servers since that client died: the ones a verdict named
 * orphaned, and the ones that left by themselves before any verdict did. Both are expected: a server
 * notices within a second that its client is gone, and on a loaded host an assessment may come round
 * only after some have. The step passes once every server is one or the other, never on the first
 * orphan named.
 *
 * @param servers the first client's servers, by pid
 * @param named the servers some verdict listed in {@code orphaned_instances}
 * @param left the servers whose rows were stopped before any verdict named them
 * @param shown the verdict that named the most of them, or null before one did
 */
record OrphanTally(List<Long> servers, Set<Long> named, Set<Long> left, DemoVerdict shown) {

    static OrphanTally of(List<Long> servers) {
        return new OrphanTally(List.copyOf(servers), Set.of(), Set.of(), null);
    }

    /** This tally after {@code verdict}, and a registry read after it in which {@code stopped} pids have stopped rows. */
    OrphanTally with(DemoVerdict verdict, Set<Long> stopped) {
        Set<Long> nowNamed = new LinkedHashSet<>(named);
        servers.stream().filter(verdict.orphanPids()::contains).forEach(nowNamed::add);
        Set<Long> nowLeft = servers.stream().filter(pid -> !nowNamed.contains(pid) && stopped.contains(pid))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        long namedHere = servers.stream().filter(verdict.orphanPids()::contains).count();
        long namedByShown = shown == null ? 0 : servers.stream().filter(shown.orphanPids()::contains).count();
        return new OrphanTally(servers, nowNamed, nowLeft, namedHere > namedByShown ? verdict : shown);
    }

    /** Every server of the gone client is named orphaned or has left, and each verdict that named one closed the gate with its code. */
    boolean complete() {
        return named.size() + left.size() == servers.size()
                && (named.isEmpty() || shown.codes().contains("orphaned_member"));
    }

    /** The step's line: how many of the servers were named, how many had left, and which pids. */
    String describe() {
        // Named across the verdicts since the client died: the one printed above is the one that named the most.
        String namedPart = named.size() + " named orphaned by the verdicts since (orphaned_member, each with the pid "
                + "to stop" + pids(named) + ")";
        String leftPart = left.isEmpty() ? "" : "; " + left.size() + " had already left by "
                + (left.size() == 1 ? "itself" : "themselves") + pids(left);
        Set<Long> pending = servers.stream().filter(pid -> !named.contains(pid) && !left.contains(pid))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        String pendingPart = pending.isEmpty() ? "" : "; " + pending.size() + " neither named nor gone" + pids(pending);
        return "the first client's " + servers.size() + " servers: " + namedPart + leftPart + pendingPart;
    }

    private static String pids(Set<Long> pids) {
        return pids.isEmpty() ? "" : ": pids " + pids.stream().sorted().map(String::valueOf)
                .collect(Collectors.joining(", "));
    }
}
