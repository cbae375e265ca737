package dev.fleet.domain.port.out;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import java.util.List;
import java.util.Set;

/**
 * The process table, observed by the answering process itself. Implementations read liveness
 * only: they send no signal beyond 0 and never start or stop a process.
 */
public interface ProcessObserver {

    /**
     * The most ancestors one observation adds ({@link #observe(List, Set, boolean)}), beyond the
     * processes it reports anyway: a table of thousands of server-looking processes costs a bounded
     * number of extra reads.
     */
    int MAX_ANCESTORS = 1024;

    /**
     * Every process whose full command line matches one of {@code serverProcessPatterns} (found
     * anywhere, as {@link java.util.regex.Matcher#find()}), and every one of {@code registeredPids}
     * (a row's pid, the parent it recorded or the server it wraps) that is alive, whatever its command
     * line. With {@code ancestors}, also the ancestors of every process that matches a pattern (its
     * parent, its parent's parent, …) that are alive, up to {@link ObservedProcess#MAX_ANCESTRY}
     * generations and {@link #MAX_ANCESTORS} processes, whatever their command lines: a wrapped server's
     * processes are served by the registration that records one of their ancestors. An observer that
     * cannot see ancestors reports none, and then no process is served: the gate stays closed over it
     * rather than opening.
     */
    ProcessObservation observe(List<String> serverProcessPatterns, Set<Long> registeredPids, boolean ancestors);

    /** As {@link #observe(List, Set, boolean)}, without ancestors. */
    default ProcessObservation observe(List<String> serverProcessPatterns, Set<Long> registeredPids) {
        return observe(serverProcessPatterns, registeredPids, false);
    }
}
