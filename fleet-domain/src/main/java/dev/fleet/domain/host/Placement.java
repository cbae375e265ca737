package dev.fleet.domain.host;

import java.util.function.LongPredicate;

/**
 * Where a server process stands towards a client (the contract, §14), decided from its parent and its
 * stdin alone:
 * <ol>
 *   <li>its stdin is a terminal: {@link Manual}, started by hand, whatever its parent;</li>
 *   <li>its parent is a process of a known client kind: that client;</li>
 *   <li>its parent is gone or is init (pid 1): the live process that holds the writing end of its stdin
 *       pipe (outside every server tree: a server never feeds another) is its client; none:
 *       {@link Orphaned};</li>
 *   <li>its parent is another process (an unknown client, or a subreaper such as {@code systemd --user}
 *       that took it in): that parent is its client (the nearest live ancestor, shown by its command),
 *       unless its stdin reads a known pipe that no live process outside the server trees holds for
 *       writing: then the client is gone and the parent is only its reaper: {@link Orphaned}. A stdin
 *       that reads no known pipe proves nothing gone, so such a server keeps its parent as client.</li>
 * </ol>
 */
sealed interface Placement permits Placement.Manual, Placement.Orphaned, Placement.Client {

    record Manual() implements Placement {
    }

    record Orphaned() implements Placement {
    }

    record Client(HostProcess process) implements Placement {
    }

    /**
     * @param mayFeed whether a pid may be the one that feeds a server (outside every server tree and the
     *     fleet's part)
     */
    static Placement of(HostProcess server, ProcessForest forest, PipeHolders holders, LongPredicate mayFeed) {
        if (server.stdinTerminal()) {
            return new Manual();
        }
        HostProcess parent = forest.parent(server);
        if (parent != null && parent.pid() != ProcessForest.INIT && ClientKinds.of(parent.argv()) != null) {
            return new Client(parent);
        }
        HostProcess feeder = holders.feeder(server, mayFeed);
        if (parent == null || parent.pid() == ProcessForest.INIT) {
            return feeder == null ? new Orphaned() : new Client(feeder);
        }
        return feeder == null && server.stdinPipe() != null ? new Orphaned() : new Client(parent);
    }
}
