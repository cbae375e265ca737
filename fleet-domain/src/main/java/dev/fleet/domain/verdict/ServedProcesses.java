package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.Roster;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The processes wrapped servers run (docs/CONTRACT.md, "Wrapped servers"): a server-looking process is
 * <b>served</b> by a live local registration that records a {@code server_pid} when it is that process or
 * descends from it (its parent, its parent's parent, … through processes observed now, at most {@link
 * ObservedProcess#MAX_ANCESTRY} generations), and has the same owner as that server. A served process is
 * the member's, never a stray. The nearest recorded server up the chain decides; a parent that started
 * after its child (or whose start, or the child's, is unknown) is no parent, since its pid may be another
 * process's now.
 *
 * <p>A row's {@code server_pid} serves only when it names the row's own child ({@link #servesFor}): the
 * process of that pid has the row's pid as its parent now and started within {@link
 * ObservedProcess#START_TOLERANCE} of the row's {@code server_started_at}. One edited column could
 * otherwise make the client, init or any process "the server" and hide every stray below it. A server pid
 * two live rows still record serves nothing: one of them is wrong, and choosing would depend on which.
 *
 * <p>A live row whose own pid is served by a wrapping registration of the same roster member (both
 * instances of it) is that member's server registering itself: it is no second instance ({@link
 * #isServersOwnRow}). What it serves is listed under the registration that wraps it.
 */
final class ServedProcesses {

    /** Nothing is served: no live row wraps a server. */
    private static final ServedProcesses NONE = new ServedProcesses(Set.of(), Set.of(), Map.of());

    private final Set<Long> served;
    private final Set<Registration> ownRows;
    private final Map<Registration, List<Long>> listed;

    private ServedProcesses(Set<Long> served, Set<Registration> ownRows, Map<Registration, List<Long>> listed) {
        this.served = served;
        this.ownRows = ownRows;
        this.listed = listed;
    }

    /** What the {@code live} registrations serve among {@code processes} (by pid); {@code roster} says which are instances. */
    static ServedProcesses of(Collection<Registration> live, Map<Long, ObservedProcess> processes, Roster roster) {
        Map<Long, Registration> wrapperOnPid = wrappersByServerPid(live, processes);
        if (wrapperOnPid.isEmpty()) {
            return NONE;
        }
        Walk walk = new Walk(processes, wrapperOnPid);
        Map<Long, Registration> nearest = new TreeMap<>();
        for (ObservedProcess process : processes.values()) {
            if (process.matchesServer()) {
                Registration wrapper = walk.nearestWrapper(process, Set.of());
                if (wrapper != null) {
                    nearest.put(process.pid(), wrapper);
                }
            }
        }
        Set<Registration> ownRows = new HashSet<>();
        for (Registration registration : live) {
            Registration wrapper = nearest.get(registration.process().pid());
            if (wrapper != null && !wrapper.equals(registration) && isInstance(registration, roster)
                    && isInstance(wrapper, roster) && wrapper.identity().equals(registration.identity())) {
                ownRows.add(registration);
            }
        }
        Map<Registration, List<Long>> listed = new HashMap<>();
        for (Map.Entry<Long, Registration> entry : nearest.entrySet()) {
            // Listed under the nearest wrapper that is shown: above a server's own row, the one wrapping it.
            Registration shown = ownRows.isEmpty() ? entry.getValue()
                    : walk.nearestWrapper(processes.get(entry.getKey()), ownRows);
            if (shown != null) {
                listed.computeIfAbsent(shown, key -> new ArrayList<>()).add(entry.getKey());
            }
        }
        return new ServedProcesses(Set.copyOf(nearest.keySet()), ownRows, listed);
    }

    /** Each server pid that exactly one live registration records and {@linkplain #servesFor serves for}, with it. */
    private static Map<Long, Registration> wrappersByServerPid(Collection<Registration> live,
            Map<Long, ObservedProcess> processes) {
        Map<Long, Set<Registration>> claims = new HashMap<>();
        for (Registration registration : live) {
            if (servesFor(registration, processes)) {
                claims.computeIfAbsent(registration.server().pid(), pid -> new HashSet<>()).add(registration);
            }
        }
        Map<Long, Registration> unique = new HashMap<>();
        claims.forEach((pid, claimants) -> {
            if (claimants.size() == 1) {
                unique.put(pid, claimants.iterator().next());
            }
        });
        return unique;
    }

    /**
     * Whether {@code registration}'s {@code server_pid} names its own child, the server it started: a process
     * observed now whose parent is the row's pid and whose start is within {@link
     * ObservedProcess#START_TOLERANCE} of {@code server_started_at}. A row that recorded no server start
     * serves nothing (nothing ties the pid to its child), and neither pid 1 nor the row's own pid is ever its
     * server (neither can be its child; named, they would cover init's or the member's whole tree).
     */
    static boolean servesFor(Registration registration, Map<Long, ObservedProcess> processes) {
        Long serverPid = registration.server().pid();
        Instant recorded = registration.server().startedAt();
        if (serverPid == null || recorded == null || serverPid == 1 || serverPid == registration.process().pid()) {
            return false;
        }
        ObservedProcess server = processes.get(serverPid);
        return server != null && server.parentPid() != null && server.parentPid() == registration.process().pid()
                && server.startedAt() != null && !ObservedProcess.startsDisagree(recorded, server.startedAt());
    }

    private static boolean isInstance(Registration registration, Roster roster) {
        return LiveRowRule.firstApplying(registration, roster) == null;
    }

    /** Whether a live process of this pid is served: the member's, never an unregistered process. */
    boolean isServed(long pid) {
        return served.contains(pid);
    }

    /** A live row that is its wrapping member's server registering itself: no instance of its own. */
    boolean isServersOwnRow(Registration registration) {
        return ownRows.contains(registration);
    }

    /** The served processes {@code registration}'s instance lists, in pid order (the map iterated in pid order). */
    List<Long> listedUnder(Registration registration) {
        return listed.getOrDefault(registration, List.of());
    }

    /** Walks up from a process to the server it descends from, through the processes of one observation. */
    private record Walk(Map<Long, ObservedProcess> processes, Map<Long, Registration> wrapperOnPid) {

        /**
         * The registration wrapping the nearest recorded server at or above {@code process}, passing over
         * those in {@code passed}; null when there is none within reach, or that server has another owner.
         */
        Registration nearestWrapper(ObservedProcess process, Set<Registration> passed) {
            ObservedProcess current = process;
            for (int generation = 0; generation <= ObservedProcess.MAX_ANCESTRY && current != null; generation++) {
                Registration wrapper = wrapperOnPid.get(current.pid());
                if (wrapper != null && !passed.contains(wrapper)) {
                    return process.user() != null && process.user().equals(current.user()) ? wrapper : null;
                }
                current = parentOf(current);
            }
            return null;
        }

        /** The observed parent of {@code child}, if it started no later than the child (both known). */
        private ObservedProcess parentOf(ObservedProcess child) {
            ObservedProcess parent = child.parentPid() == null ? null : processes.get(child.parentPid());
            if (parent == null || parent.startedAt() == null || child.startedAt() == null
                    || parent.startedAt().isAfter(child.startedAt())) {
                return null;
            }
            return parent;
        }
    }
}
