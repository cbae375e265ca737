package dev.fleet.observer;

import java.io.File;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;

/**
 * The fds of one process that may be the other end of some stdin's channel ({@link Channels}): pipes some stdin
 * reads (with their fd, whose flags then tell whether it writes) and sockets next to a stdin's socket. Read in the
 * look's second pass, only when some stdin channel exists, only of a process whose fds could be read at all, and
 * without reading fd 0 and fd 1 again ({@link Descriptors} read them): the rest of {@code fd/}, one
 * {@code readlink} each, within the {@link Budget}.
 *
 * @param pipeFds the fds on a stdin's pipe, {@code pipeInodes} their inodes, both {@code pipes} long
 * @param sockets the sockets next to a stdin's socket, {@code socketCount} long
 * @param cut whether the bound left some fds unread
 * @param refused whether {@code fd/} could not be listed or a link was refused mid-way: its fds are not all known
 */
record HeldChannels(int[] pipeFds, long[] pipeInodes, int pipes, long[] sockets, int socketCount, boolean cut,
        boolean refused) {

    static final HeldChannels NONE = new HeldChannels(new int[0], new long[0], 0, new long[0], 0, false, false);

    /** fd 0 and fd 1 alone, as the first pass read them: when the rest of {@code fd/} need not be read. */
    static HeldChannels ofStdio(Descriptors stdio, Channels wanted) {
        return new Collector(wanted).stdio(stdio).done(stdio.cut(), false);
    }

    /** fd 0 and fd 1 as read, and every other fd of {@code fdDirectory} ("/proc/PID/fd/"). */
    static HeldChannels read(String fdDirectory, Descriptors stdio, Channels wanted, Budget budget) {
        Collector held = new Collector(wanted).stdio(stdio);
        // File.list: one native call for the whole listing, names as strings; null when the process is gone
        // (or its fds are refused): what was read stands. procfs lists fds ascending, so a cut keeps the first.
        String[] names = new File(fdDirectory).list();
        int read = stdio.linksRead();
        boolean cut = stdio.cut();
        boolean refused = names == null;
        for (String name : names == null ? new String[0] : names) {
            int fd = Descriptors.fdNumber(name);
            if (fd < 2) {
                continue; // fd 0 and fd 1 were read in the first pass; anything else is no fd
            }
            if (!budget.take(read)) {
                cut = true;
                break;
            }
            read++;
            try {
                String target = Descriptors.target(fdDirectory + name);
                if (target != null) {
                    held.add(fd, target);
                }
            } catch (AccessDeniedException e) {
                refused = true;
                break; // refused mid-way (the process exec'd a setuid program): what was read stands
            }
        }
        return held.done(cut, refused);
    }

    private static final class Collector {
        private final Channels wanted;
        private int[] fds = new int[2];
        private long[] inodes = new long[2];
        private int pipes;
        private long[] sockets = new long[2];
        private int socketCount;

        Collector(Channels wanted) {
            this.wanted = wanted;
        }

        Collector stdio(Descriptors stdio) {
            pipe(0, stdio.stdinPipe());
            socket(stdio.stdinSocket());
            pipe(1, stdio.stdoutPipe());
            socket(stdio.stdoutSocket());
            return this;
        }

        void add(int fd, String target) {
            pipe(fd, Descriptors.pipeInode(target));
            socket(Descriptors.socketInode(target));
        }

        private void pipe(int fd, long inode) {
            if (!wanted.readPipe(inode)) {
                return;
            }
            if (pipes == fds.length) {
                fds = Arrays.copyOf(fds, pipes * 2);
                inodes = Arrays.copyOf(inodes, pipes * 2);
            }
            fds[pipes] = fd;
            inodes[pipes++] = inode;
        }

        private void socket(long inode) {
            if (!wanted.nearSocket(inode)) {
                return;
            }
            if (socketCount == sockets.length) {
                sockets = Arrays.copyOf(sockets, socketCount * 2);
            }
            sockets[socketCount++] = inode;
        }

        HeldChannels done(boolean cut, boolean refused) {
            return pipes == 0 && socketCount == 0 && !cut && !refused ? NONE
                    : new HeldChannels(fds, inodes, pipes, sockets, socketCount, cut, refused);
        }
    }
}
