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
     * What a process writes of the stdin channels.
     *
     * @param channels the stdin channels (inodes) whose other end it holds
     * @param output the pipes among them it writes through its stdout or stderr alone: its own output, which no
     *     client hands a server as its stdin
     */
    record Written(Set<Long> channels, Set<Long> output) {
        static final Written NONE = new Written(Set.of(), Set.of());
    }

    /**
     * The stdin channels (inodes) whose other end the process read in {@code directory} ({@code /proc/PID}, or a
     * live thread's) holds: the stdin pipes among {@code held} that it holds open for writing, and the stdin
     * sockets next to a socket it holds; none when none.
     */
    Written of(String directory, HeldChannels held, Channels wanted) {
        if (held.pipes() == 0 && held.socketCount() == 0) {
            return Written.NONE;
        }
        Set<Long> written = new HashSet<>(4);
        Set<Long> otherwise = new HashSet<>(4); // written through an fd that is neither its stdout nor its stderr
        for (int i = 0; i < held.pipes(); i++) {
            long inode = held.pipeInodes()[i];
            int fd = held.pipeFds()[i];
            boolean output = fd == 1 || fd == 2;
            if (!(output ? written : otherwise).contains(inode) && opensForWriting(directory, fd)) {
                written.add(inode);
                if (!output) {
                    otherwise.add(inode);
                }
            }
        }
        Set<Long> output = new HashSet<>(written);
        output.removeAll(otherwise);
        for (int i = 0; i < held.socketCount(); i++) {
            wanted.socketsPeeredBy(held.sockets()[i], written);
        }
        return new Written(written, output);
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
