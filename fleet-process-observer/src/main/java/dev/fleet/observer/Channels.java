package dev.fleet.observer;

import java.util.HashSet;
import java.util.Set;

/**
 * The stdin channels of a look: the pipes and the sockets some observed process's stdin reads, and which held fd
 * may be the other end of one. A pipe's two ends share its inode (who writes is told by the fd's flags, {@link
 * PipeWriters}). A socketpair's two ends are two sockets, and which socket is a given one's peer only netlink's
 * {@code sock_diag} says, which plain Java cannot ask; the kernel numbers the pair's two sockets one after the
 * other (usually: nothing guarantees it), so a socket whose inode is a stdin socket's plus or minus one is taken
 * for its peer. That errs on the safe side: a wrong guess names a holder where there is none, which can only
 * keep a server from being called orphaned, never make a fed server a stray.
 */
final class Channels {

    private final Set<Long> pipes = new HashSet<>();
    private final Set<Long> sockets = new HashSet<>();

    void add(Descriptors stdio) {
        if (stdio.stdinPipe() >= 0) {
            pipes.add(stdio.stdinPipe());
        }
        if (stdio.stdinSocket() >= 0) {
            sockets.add(stdio.stdinSocket());
        }
    }

    boolean isEmpty() {
        return pipes.isEmpty() && sockets.isEmpty();
    }

    /** Some stdin reads this pipe. */
    boolean readPipe(long inode) {
        return inode >= 0 && pipes.contains(inode);
    }

    /** This socket may be the peer of some stdin's socket. */
    boolean nearSocket(long inode) {
        return inode >= 0 && (sockets.contains(inode - 1) || sockets.contains(inode + 1));
    }

    /** The stdin sockets {@code inode} may be the peer of, added to {@code into}. */
    void socketsPeeredBy(long inode, Set<Long> into) {
        if (sockets.contains(inode - 1)) {
            into.add(inode - 1);
        }
        if (sockets.contains(inode + 1)) {
            into.add(inode + 1);
        }
    }
}
