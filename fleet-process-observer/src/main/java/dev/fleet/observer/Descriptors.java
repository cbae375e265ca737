package dev.fleet.observer;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a process's fd 0 and fd 1 say about how it was started, from their two links in {@code /proc/<pid>/fd}:
 * whether its stdin is a terminal (started by hand), the channel its stdin reads, and whether its stdout is one.
 * A channel is a pipe ({@code pipe:[N]}: a shell, Python's or Java's subprocess, Go's exec) or a unix socket
 * ({@code socket:[N]}: every Node client, Claude Code, VS Code, Cursor, Gemini CLI, Claude Desktop and the
 * TypeScript SDK, hands its stdio servers one end of a socketpair, libuv's way). The look's first pass reads only
 * these two links of every process; the other fds of a process are read only when some stdin channel exists that
 * it might hold ({@link HeldChannels}). Pipes and sockets take their inodes from one kernel counter, so one
 * number names either.
 *
 * @param stdinTerminal fd 0 is a terminal: {@code /dev/pts/N}, {@code /dev/ttyN}, {@code /dev/tty} or
 *     {@code /dev/console}
 * @param stdinPipe the inode of the pipe fd 0 reads, -1 when none
 * @param stdinSocket the inode of the socket fd 0 reads, -1 when none
 * @param stdoutPipe the inode of the pipe fd 1 is, -1 when none
 * @param stdoutSocket the inode of the socket fd 1 is, -1 when none
 * @param readable whether the fds could be read at all (another user's cannot, unless the reader is root)
 * @param linksRead how many links were read (each counts against the process's bound)
 * @param cut whether the bound left fd 0 or fd 1 unread
 */
record Descriptors(boolean stdinTerminal, long stdinPipe, long stdinSocket, long stdoutPipe, long stdoutSocket,
        boolean readable, int linksRead, boolean cut) {

    /** What a process whose fds cannot be read (another user's, a kernel thread, or gone) says: nothing. */
    static final Descriptors UNREADABLE = new Descriptors(false, -1, -1, -1, -1, false, 0, false);

    private static final String PIPE = "pipe:[";
    private static final String SOCKET = "socket:[";

    /** The channel stdin reads (a pipe's or a socket's inode), null when it is neither or unread. */
    Long stdinChannel() {
        return stdinPipe >= 0 ? Long.valueOf(stdinPipe) : stdinSocket >= 0 ? Long.valueOf(stdinSocket) : null;
    }

    /** Whether stdout is a pipe or a socket. */
    boolean stdoutChannel() {
        return stdoutPipe >= 0 || stdoutSocket >= 0;
    }

    /** fd 0 and fd 1 of the process whose fd directory is {@code fdDirectory} ("/proc/PID/fd/"). */
    static Descriptors read(String fdDirectory, Budget budget) {
        int linksRead = 0;
        boolean cut = false;
        String stdin = null;
        String stdout = null;
        try {
            if (budget.take(linksRead)) {
                linksRead++;
                stdin = target(fdDirectory + "0");
            } else {
                cut = isOpen(fdDirectory + "0");
            }
            if (linksRead == 1 && budget.take(linksRead)) {
                linksRead++;
                stdout = target(fdDirectory + "1");
            } else {
                cut = cut || isOpen(fdDirectory + "1");
            }
        } catch (AccessDeniedException e) {
            return UNREADABLE; // another user's process: its fds say nothing to this reader
        }
        return new Descriptors(stdin != null && isTerminal(stdin), stdin == null ? -1 : pipeInode(stdin),
                stdin == null ? -1 : socketInode(stdin), stdout == null ? -1 : pipeInode(stdout),
                stdout == null ? -1 : socketInode(stdout), true, linksRead, cut);
    }

    /** Whether the fd is open: only asked when the bound leaves it unread, to say so only when it was. */
    private static boolean isOpen(String link) {
        return Files.isSymbolicLink(Path.of(link));
    }

    /** The link's target, or null when the fd is closed (or was closed meanwhile, or the process is gone). */
    static String target(String link) throws AccessDeniedException {
        try {
            return Files.readSymbolicLink(Path.of(link)).toString();
        } catch (AccessDeniedException e) {
            throw e;
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
        return inode(target, PIPE);
    }

    /** The inode of {@code socket:[INODE]}, or -1 when the target is no socket. */
    static long socketInode(String target) {
        return inode(target, SOCKET);
    }

    private static long inode(String target, String prefix) {
        if (!target.startsWith(prefix) || !target.endsWith("]")) {
            return -1;
        }
        return digits(target, prefix.length(), target.length() - 1);
    }

    static int fdNumber(String name) {
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
