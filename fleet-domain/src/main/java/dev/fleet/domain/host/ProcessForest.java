package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The observed processes as a forest: each by pid, its parent and its children. A snapshot is taken
 * process by process, so it may name a pid twice or link parents in a cycle (a pid reused while it was
 * read); the forest keeps one process per pid, chosen by content, never by arrival, and every walk is
 * bounded, so neither can make the classification depend on order or run forever.
 */
final class ProcessForest {

    /** The pid the kernel reparents orphans to when no subreaper takes them. */
    static final long INIT = 1;

    private static final Comparator<HostProcess> PREFERRED = Comparator.comparingLong(HostProcess::startTicks)
            .thenComparingLong(HostProcess::parentPid)
            .thenComparing(HostProcess::commandLine)
            .thenComparing(ProcessForest::sortedPipes, ProcessForest::lexicographic)
            .thenComparing(process -> process.pipesOutput().stream().sorted().toList(), ProcessForest::lexicographic)
            .thenComparing(process -> List.of(process.processGroup(), process.session(), (long) process.uid(),
                    process.stdinPipe() == null ? -1L : process.stdinPipe(), process.stdinTerminal() ? 1L : 0L,
                    process.stdoutPipe() ? 1L : 0L, process.memoryBytes()), ProcessForest::lexicographic)
            .thenComparing(process -> String.valueOf(process.startedAt()))
            .thenComparing(process -> String.join("\u0000", process.argv()));

    /** Its pipes in numeric order: a Set's own order varies from one JVM to the next. */
    private static List<Long> sortedPipes(HostProcess process) {
        return process.pipesWritten().stream().sorted().toList();
    }

    private static int lexicographic(List<Long> a, List<Long> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = Long.compare(a.get(i), b.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private final Map<Long, HostProcess> byPid;
    private final Map<Long, List<Long>> children;

    private ProcessForest(Map<Long, HostProcess> byPid, Map<Long, List<Long>> children) {
        this.byPid = byPid;
        this.children = children;
    }

    static ProcessForest of(Collection<HostProcess> processes) {
        Map<Long, HostProcess> byPid = new TreeMap<>();
        for (HostProcess process : processes) {
            byPid.merge(process.pid(), process, (a, b) -> PREFERRED.compare(a, b) <= 0 ? a : b);
        }
        Map<Long, List<Long>> children = new TreeMap<>();
        // byPid is sorted, so every child list is in pid order.
        for (HostProcess process : byPid.values()) {
            if (process.parentPid() != process.pid()) {
                children.computeIfAbsent(process.parentPid(), parent -> new ArrayList<>()).add(process.pid());
            }
        }
        return new ProcessForest(byPid, children);
    }

    /** Every process, by pid. */
    Collection<HostProcess> all() {
        return byPid.values();
    }

    /** The process with {@code pid}, or null when none was observed. */
    HostProcess get(long pid) {
        return byPid.get(pid);
    }

    /** The live parent of {@code process}, or null when its parent was not observed (or is itself). */
    HostProcess parent(HostProcess process) {
        return process.parentPid() == process.pid() ? null : byPid.get(process.parentPid());
    }

    /**
     * {@code root} and every process below it, the root first and then its descendants by pid; a
     * process in {@code stopAt} is left out with everything below it.
     */
    List<Long> tree(long root, Set<Long> stopAt) {
        List<Long> descendants = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        seen.add(root);
        List<Long> frontier = List.of(root);
        while (!frontier.isEmpty()) {
            List<Long> next = new ArrayList<>();
            for (long pid : frontier) {
                for (long child : children.getOrDefault(pid, List.of())) {
                    if (!stopAt.contains(child) && seen.add(child)) {
                        descendants.add(child);
                        next.add(child);
                    }
                }
            }
            frontier = next;
        }
        descendants.sort(Comparator.naturalOrder());
        List<Long> tree = new ArrayList<>(descendants.size() + 1);
        tree.add(root);
        tree.addAll(descendants);
        return tree;
    }

    /**
     * The live ancestors of {@code process}, nearest first, up to (not including) a pid seen twice: a
     * cycle ends the walk.
     */
    List<HostProcess> ancestors(HostProcess process) {
        List<HostProcess> ancestors = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        seen.add(process.pid());
        for (HostProcess up = parent(process); up != null && seen.add(up.pid()); up = parent(up)) {
            ancestors.add(up);
        }
        return ancestors;
    }
}
