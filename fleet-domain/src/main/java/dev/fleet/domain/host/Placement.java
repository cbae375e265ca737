package dev.fleet.domain.host;

import java.util.function.LongPredicate;

/**
 * Where a server process stands towards a client (the contract, §14), decided from its parent and its
 * stdin alone:
 * <ol>
 *   <li>its stdin is a terminal: {@link Manual}, started by hand, whatever its parent;</li>
 *   <li>its parent is live, not init (pid 1) and not a known reaper ({@link Reapers}): that parent is its
 *       client, of a known kind or shown by its command. Never an orphan: the holders of its stdin's other
 *       end go unseen in ordinary cases (a client of another user, a socketpair not numbered next to it);</li>
 *   <li>its parent is not in a table that may hide other users' processes ({@link Unseen#mayHideParentOf},
 *       {@code /proc}'s hidepid): {@link Undecided}, since that parent may be live, and its client;</li>
 *   <li>its parent is gone, init or a reaper: the live process that holds the other end of its stdin channel
 *       (outside every server tree: a server never feeds another) is its client, where the channel is a pipe,
 *       whose writing end's holders are known. Over a socket the holder of its peer is only guessed (a socket
 *       whose inode is next to it): one held makes it {@link Undecided}, never a client's, since a wrong guess
 *       must never make it a stray under a client it does not belong to;</li>
 *   <li>with a stdin that reads no channel (a daemon's {@code /dev/null}), a reaper that is not init keeps it as
 *       its client, and a parent that is gone or init leaves it {@link Undecided}: a stdio server a client started
 *       reads that client's pipe or socket, and only one no live process holds proves its client gone. Any process
 *       may match an entry (a cloned repository's {@code .mcp.json} names what it likes, {@code tmux}'s server),
 *       and the stop script would end it with its tree;</li>
 *   <li>with a channel no holder is seen of: {@link Orphaned} when the look read the open files of every process
 *       that could hold it, else ({@link Unseen#holders}: some process's files could not be read, or processes
 *       may be hidden) {@link Undecided}, since the unseen holder may be its client.</li>
 * </ol>
 */
sealed interface Placement permits Placement.Manual, Placement.Orphaned, Placement.Undecided, Placement.Client {

    record Manual() implements Placement {
    }

    record Orphaned() implements Placement {
    }

    /**
     * No client named, and no proof that none is left: reported {@code current} without a client, with a warning
     * that says why.
     */
    record Undecided(Why why) implements Placement {
    }

    /** Why no proof: each is one warning. */
    enum Why {
        /** Its parent or its holder may be a process the look could not see ({@link Unseen}), and the client. */
        UNSEEN,
        /** Fed over a socket, whose peer's holder is only guessed (the inode next to it): a guess never makes a stray. */
        SOCKET,
        /** Its stdin reads no channel, so none held or let go says whether a client is gone. */
        NO_CHANNEL
    }

    record Client(HostProcess process) implements Placement {
    }

    /**
     * @param mayFeed whether a pid may be the one that feeds a server (outside every server tree and the
     *     fleet's part)
     * @param unseen what the look may have missed: unread open files, hidden processes
     */
    static Placement of(HostProcess server, ProcessForest forest, PipeHolders holders, LongPredicate mayFeed,
            Unseen unseen) {
        if (server.stdinTerminal()) {
            return new Manual();
        }
        HostProcess parent = forest.parent(server);
        if (parent != null && parent.pid() > ProcessForest.INIT && !Reapers.is(parent)) {
            return new Client(parent);
        }
        // A parent the table may hide is no client to name, and no proof of one gone: the holder of its stdin is
        // the client only of a server whose parent is known reparented.
        if (unseen.mayHideParentOf(server, forest)) {
            return new Undecided(Why.UNSEEN);
        }
        HostProcess feeder = holders.knownFeeder(server, mayFeed);
        if (feeder != null) {
            return new Client(feeder);
        }
        if (server.stdinSocket() && holders.fed(server, mayFeed)) {
            return new Undecided(Why.SOCKET);
        }
        if (server.stdinPipe() == null) {
            return parent == null || parent.pid() <= ProcessForest.INIT ? new Undecided(Why.NO_CHANNEL)
                    : new Client(parent);
        }
        return unseen.holders() ? new Undecided(Why.UNSEEN) : new Orphaned();
    }
}
