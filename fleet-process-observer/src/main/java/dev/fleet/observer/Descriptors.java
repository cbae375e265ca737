package dev.fleet.observer;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What one process's open files say about how it was started, from the links in {@code /proc/<pid>/fd}: whether
 * its stdin is a terminal (started by hand), the pipe its stdin reads, whether its stdout is a pipe, and every
 * pipe it holds (fd and inode), of which the look later keeps those it writes. One {@code readlink} per fd is
 * the cost of {@code fleet host}'s look, so the fds read are bounded per process and per look ({@link Budget}).
 *
 * @param stdinTerminal fd 0 is a terminal: {@code /dev/pts/N}, {@code /dev/ttyN}, {@code /dev/tty} or
 *     {@code /dev/console}
 * @param stdinPipe the inode of the pipe fd 0 reads, null when fd 0 is no pipe or could not be read
 * @param stdoutPipe fd 1 is a pipe
 * @param pipeFds the fds that are pipes, {@code pipeInodes} their inodes, both {@code pipes} long
 */
record Descriptors(boolean stdinTerminal, Long stdinPipe, boolean stdoutPipe, int[] pipeFds, long[] pipeInodes,
        int pipes) {

    /** What a process whose fds cannot be read (another user's, or gone) says: nothing. */
    static final Descriptors UNREADABLE = new Descriptors(false, null, false, new int[0], new long[0], 0);

    private static final String PIPE = "pipe:[";

    /** How many fds may still be read, per process and in the whole look; counts what was left unread. */
    static final class Budget {
        private final int perProcess;
        private long remaining;
        private long processesCut;

        Budget(int perProcess, long total) {
            this.perProcess = perProcess;
            this.remaining = total;
        }

        /** Processes of which some fds were left unread. */
        long processesCut() {
            return processesCut;
        }
    }

    /** The fds of the process whose fd directory is {@code fdDirectory}; {@link #UNREADABLE} when it cannot be listed. */
    static Descriptors read(Path fdDirectory, Budget budget) {
        boolean terminal = false;
        Long stdinPipe = null;
        boolean stdoutPipe = false;
        int[] fds = new int[4];
        long[] inodes = new long[4];
        int pipes = 0;
        int read = 0;
        // procfs lists a process's fds in ascending order, so 0 and 1 come first whatever the bound cuts.
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(fdDirectory)) {
            for (Path entry : entries) {
                if (read == budget.perProcess || budget.remaining == 0) {
                    budget.processesCut++;
                    break;
                }
                read++;
                budget.remaining--;
                int fd = fdNumber(entry.getFileName().toString());
                String target = target(entry);
                if (fd < 0 || target == null) {
                    continue; // closed since it was listed
                }
                long inode = pipeInode(target);
                if (fd == 0) {
                    terminal = isTerminal(target);
                    stdinPipe = inode < 0 ? null : inode;
                } else if (fd == 1) {
                    stdoutPipe = inode >= 0;
                }
                if (inode >= 0) {
                    if (pipes == fds.length) {
                        fds = Arrays.copyOf(fds, pipes * 2);
                        inodes = Arrays.copyOf(inodes, pipes * 2);
                    }
                    fds[pipes] = fd;
                    inodes[pipes] = inode;
                    pipes++;
                }
            }
        } catch (IOException | DirectoryIteratorException | SecurityException e) {
            // another user's process (EACCES), or one that has exited: its fds say nothing
            if (read == 0) {
                return UNREADABLE;
            }
        }
        return new Descriptors(terminal, stdinPipe, stdoutPipe, fds, inodes, pipes);
    }

    /** The link's target, or null when the fd has been closed meanwhile. */
    private static String target(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** A terminal device, as {@code isatty} would answer for the fd: the kinds a person's shell hands on. */
    static boolean isTerminal(String target) {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }

    /** The inode of {@code pipe:[INODE]}, or -1 when the target is no pipe. */
    static long pipeInode(String target) {
        if (!target.startsWith(PIPE) || !target.endsWith("]")) {
            return -1;
        }
        return digits(target, PIPE.length(), target.length() - 1);
    }

    private static int fdNumber(String name) {
        long fd = digits(name, 0, name.length());
        return fd > Integer.MAX_VALUE ? -1 : (int) fd;
    }

    /** The decimal number {@code text[from, to)}, or -1 when it is empty, holds anything else, or is too long. */
    private static long digits(String text, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
