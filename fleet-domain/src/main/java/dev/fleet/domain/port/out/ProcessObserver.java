package dev.fleet.domain.port.out;

import dev.fleet.domain.ProcessObservation;
import java.util.List;
import java.util.Set;

/**
 * The process table, observed by the answering process itself. Implementations read liveness
 * only: they send no signal beyond 0 and never start or stop a process.
 */
public interface ProcessObserver {

    /**
     * Every process whose full command line matches one of {@code serverProcessPatterns} (found
     * anywhere, as {@link java.util.regex.Matcher#find()}), and every one of {@code registeredPids}
     * (a row's pid, or the parent it recorded) that is alive, whatever its command line.
     */
    ProcessObservation observe(List<String> serverProcessPatterns, Set<Long> registeredPids);
}
