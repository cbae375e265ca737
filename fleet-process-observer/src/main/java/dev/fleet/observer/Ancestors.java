package dev.fleet.observer;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.port.out.ProcessObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The ancestors of the server-looking processes of one observation (either observer's), looked up generation by generation
 * (breadth first, so each is read once, at its nearest distance from a match) up to {@link
 * ObservedProcess#MAX_ANCESTRY} generations and {@link ProcessObserver#MAX_ANCESTORS} reads: a process a
 * wrapped server started is served by the registration that records its ancestor, and the classifier can
 * only walk up through processes the observation holds. Reads, as every observation does, and nothing else.
 */
final class Ancestors {

    private Ancestors() {
    }

    /**
     * The ancestors of {@code found}'s server matches that {@code found} lacks, each as {@code read} reports it
     * (null: gone, or no process).
     */
    static List<ObservedProcess> of(List<ObservedProcess> found, LongFunction<ObservedProcess> read) {
        Map<Long, ObservedProcess> known = new HashMap<>();
        found.forEach(process -> known.put(process.pid(), process));
        Set<Long> climbed = new HashSet<>();
        List<Long> generation = new ArrayList<>();
        for (ObservedProcess process : found) {
            if (process.matchesServer() && climbed.add(process.pid()) && process.parentPid() != null) {
                generation.add(process.parentPid());
            }
        }
        List<ObservedProcess> ancestors = new ArrayList<>();
        int reads = 0;
        for (int depth = 0; depth < ObservedProcess.MAX_ANCESTRY && !generation.isEmpty(); depth++) {
            List<Long> next = new ArrayList<>();
            for (long pid : generation) {
                if (!climbed.add(pid)) {
                    continue;
                }
                ObservedProcess process = known.get(pid);
                if (process == null) {
                    if (reads++ >= ProcessObserver.MAX_ANCESTORS) {
                        return ancestors;
                    }
                    process = read.apply(pid);
                    if (process != null) {
                        ancestors.add(process);
                    }
                }
                if (process != null && process.parentPid() != null) {
                    next.add(process.parentPid());
                }
            }
            generation = next;
        }
        return ancestors;
    }
}
