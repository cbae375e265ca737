package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Who holds the writing end of each pipe a process's stdin reads ({@link HostProcess#pipesWritten}): the
 * one who can still feed it. A client that is gone holds none, and a server that leaked a sibling's pipe
 * (started without close-on-exec) never feeds it, so the holders that count are chosen by the caller.
 */
final class PipeHolders {

    /** The holder to name when several count: a process of a known client kind first, then the lowest pid. */
    private static final Comparator<HostProcess> PREFERRED = Comparator
            .comparing((HostProcess process) -> ClientKinds.of(process.argv()) == null)
            .thenComparingLong(HostProcess::pid);

    private final Map<Long, List<HostProcess>> byPipe;

    private PipeHolders(Map<Long, List<HostProcess>> byPipe) {
        this.byPipe = byPipe;
    }

    static PipeHolders of(ProcessForest forest) {
        Map<Long, List<HostProcess>> byPipe = new HashMap<>();
        for (HostProcess process : forest.all()) {
            for (long pipe : process.pipesWritten()) {
                byPipe.computeIfAbsent(pipe, p -> new ArrayList<>()).add(process);
            }
        }
        byPipe.values().forEach(holders -> holders.sort(PREFERRED));
        return new PipeHolders(byPipe);
    }

    /**
     * The preferred holder of the other end of {@code reader}'s stdin channel among those {@code counts} accepts
     * (by pid), or null when none does or its stdin reads no known channel. Over a socket it is a guess (the
     * inode next to it), to be shown, never acted on ({@link #knownFeeder}).
     */
    HostProcess feeder(HostProcess reader, LongPredicate counts) {
        if (reader.stdinPipe() == null) {
            return null;
        }
        for (HostProcess holder : byPipe.getOrDefault(reader.stdinPipe(), Collections.emptyList())) {
            if (holder.pid() != reader.pid() && counts.test(holder.pid())) {
                return holder;
            }
        }
        return null;
    }

    /**
     * The holder of the writing end of {@code reader}'s stdin pipe, as {@link #feeder} names it, only where it is
     * known: over a socket the holder is a guess, which may name a process that feeds nothing of it, and no guess
     * may make a process a stray (the contract, §14).
     */
    HostProcess knownFeeder(HostProcess reader, LongPredicate counts) {
        return reader.stdinSocket() ? null : feeder(reader, counts);
    }

    /** Whether some process {@code counts} accepts holds the other end of {@code reader}'s stdin channel, named or not. */
    boolean fed(HostProcess reader, LongPredicate counts) {
        return feeder(reader, counts) != null;
    }
}
