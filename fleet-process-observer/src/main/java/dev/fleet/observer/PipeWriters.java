package dev.fleet.observer;

import java.util.HashSet;
import java.util.Set;

/**
 * Which of the channels some process's stdin reads a process holds the other end of: the living end of a server's
 * stdin, which tells a client that still holds it from an orphan whose client is gone (the contract, §14). A
 * pipe's two ends share one inode, so the link alone cannot tell them apart; {@code /proc/<pid>/fdinfo/<fd>}'s
 * {@code flags:} (octal) says how the fd was opened. Only the fds on a pipe some stdin reads are asked, a few on
 * any host. A socket next to a stdin's socket is taken for its peer, as {@link Channels} says why.
 */
final class PipeWriters {

    /** {@code O_ACCMODE} and its two writing modes (asm-generic/fcntl.h, the same on every Linux). */
    private static final int ACCESS_MODE = 03;
    private static final int WRITE_ONLY = 01;
    private static final int READ_WRITE = 02;
    private static final byte[] FLAGS = {'f', 'l', 'a', 'g', 's', ':'};

    private final ProcFileReader reader;

    PipeWriters(ProcFileReader reader) {
        this.reader = reader;
    }

    /**
     * The stdin channels (inodes) whose other end the process read in {@code directory} ({@code /proc/PID}, or a
     * live thread's) holds: the stdin pipes among {@code held} that it holds open for writing, and the stdin
     * sockets next to a socket it holds; empty when none.
     */
    Set<Long> of(String directory, HeldChannels held, Channels wanted) {
        if (held.pipes() == 0 && held.socketCount() == 0) {
            return Set.of();
        }
        Set<Long> written = new HashSet<>(4);
        for (int i = 0; i < held.pipes(); i++) {
            long inode = held.pipeInodes()[i];
            if (!written.contains(inode) && opensForWriting(directory, held.pipeFds()[i])) {
                written.add(inode);
            }
        }
        for (int i = 0; i < held.socketCount(); i++) {
            wanted.socketsPeeredBy(held.sockets()[i], written);
        }
        return written;
    }

    /** Whether the fd was opened write-only or read-write; false when its fdinfo is gone or unreadable. */
    private boolean opensForWriting(String directory, int fd) {
        int length = reader.readToEnd(directory + "/fdinfo/" + fd);
        if (length < 0) {
            return false;
        }
        long flags = octalFlags(reader.buffer(), length);
        long mode = flags & ACCESS_MODE;
        return flags >= 0 && (mode == WRITE_ONLY || mode == READ_WRITE);
    }

    /** The octal number on the {@code flags:} line, or -1. */
    static long octalFlags(byte[] fdinfo, int length) {
        return ProcLines.digits(fdinfo, ProcLines.valueAfter(fdinfo, length, FLAGS), length, 8, 21);
    }
}
