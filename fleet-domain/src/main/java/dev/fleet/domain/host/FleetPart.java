package dev.fleet.domain.host;

import java.util.HashSet;
import java.util.Set;

/**
 * What {@code fleet host} leaves out (the contract, §14): the observing process itself, and every process
 * matching a pattern of the fleet's roster, with its tree: those are the fleet's own part (§5), reported
 * by {@code fleet assess}. Which processes match is the snapshot's ({@link HostSnapshot#fleetPids}), found
 * by the matcher the fleet's own observer uses, so the two parts never disagree on a process. Init and
 * the observer's ancestors are spared too ({@link #spares}): shown as clients where they are one, never stopped.
 */
record FleetPart(Set<Long> pids, Set<Long> spared) {

    FleetPart {
        pids = Set.copyOf(pids);
        spared = Set.copyOf(spared);
    }

    static FleetPart of(ProcessForest forest, Set<Long> fleetPids, long ownPid) {
        Set<Long> roots = new HashSet<>();
        if (forest.get(ownPid) != null) {
            roots.add(ownPid);
        }
        for (long pid : fleetPids) {
            if (forest.get(pid) != null) {
                roots.add(pid);
            }
        }
        Set<Long> part = new HashSet<>();
        for (long root : roots) {
            part.addAll(forest.tree(root, Set.of()));
        }
        // The observing process's own children (none, today) would be fleet's too; its parent is not.
        Set<Long> spared = new HashSet<>(part);
        spared.add(ProcessForest.INIT);
        // Without a start, no stop line could check it is still the process seen.
        forest.all().stream().filter(process -> process.startTicks() < 0).forEach(process -> spared.add(process.pid()));
        HostProcess own = forest.get(ownPid);
        if (own != null) {
            forest.ancestors(own).forEach(up -> spared.add(up.pid()));
        }
        return new FleetPart(part, spared);
    }

    /**
     * Whether {@code pid} is never a server, in a tree or a stray: the fleet's part, init (pid 1, or a pid
     * below it that only a broken snapshot shows), a process without a start, and the observing process's
     * ancestors: among them the shell {@code fleet host --strays --format sh | sh} is typed into, whose stop
     * would end the session running the script. The pipeline's own {@code sh} is {@code fleet}'s sibling, not
     * an ancestor, so it is not spared; it needs no sparing, being no server (unless an entry is a bare
     * {@code sh}), in no tree (a server above it is above {@code fleet} too) and, its parent alive, no
     * leftover. An ancestor may still be a client (a {@code claude} whose shell tool runs {@code fleet host}).
     */
    boolean spares(long pid) {
        return pid <= ProcessForest.INIT || spared.contains(pid);
    }

    boolean contains(long pid) {
        return pids.contains(pid);
    }
}
