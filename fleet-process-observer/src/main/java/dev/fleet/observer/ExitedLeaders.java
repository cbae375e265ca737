package dev.fleet.observer;

import java.io.File;

/**
 * A process whose main thread has exited while its other threads run on: its main thread is a zombie
 * ({@code Z}) and shows an empty {@code cmdline}, no open files and no memory, yet the process lives
 * ({@code kill -0} succeeds) and runs its program. Any process may do this (one {@code exit} system call
 * on its main thread), so a look that took the main thread for the process would miss a sixth server.
 * What the main thread no longer shows is read from a live thread's {@code task/TID} directory,
 * which shares the process's memory and open files; its parent and start stay the main thread's.
 *
 * <p>A process being killed looks much the same for a moment (a tenth of a second for a JVM's large heap):
 * its main thread, or its last, still {@code R} while it frees the memory, its {@code cmdline} already
 * empty. Every thread of it is then marked exiting, and nothing of it runs on: it is no process.
 */
final class ExitedLeaders {

    /** Threads looked at, at most: any live one will do, and threads that exit are reaped at once. */
    static final int MAX_THREADS_LOOKED_AT = 64;

    private ExitedLeaders() {
    }

    /**
     * What still runs of a process whose main thread is dead or exiting: a live thread to read it from, threads
     * that run but could not be looked at one by one, or nothing.
     *
     * @param liveThread the directory ({@code /proc/PID/task/TID}) of a thread that runs the program, or null
     * @param runs whether the process runs on: always so with a live thread; without one, when its threads
     *     could not all be looked at and its {@code status} counts more than the main one (a process is never
     *     taken for dead on what could not be read)
     */
    record Remains(String liveThread, boolean runs) {

        static final Remains NOTHING = new Remains(null, false);
    }

    /**
     * What runs on of the process in {@code directory} ({@code /proc/PID}), its main thread seen dead or exiting:
     * a thread that is neither ({@link ProcStat#isExiting}) runs its program. A process being killed has none,
     * though a thread of it may still show {@code R} while it frees the memory. Overwrites the reader's buffer.
     */
    static Remains remains(String directory, ProcFileReader reader) {
        String[] threads = new File(directory + "/task").list();
        if (threads == null) {
            return new Remains(null, othersRun(directory, reader));
        }
        String pid = directory.substring(directory.lastIndexOf('/') + 1);
        int looked = 0;
        for (String thread : threads) {
            if (thread.equals(pid) || ProcfsScan.pidOf(thread) <= 0) {
                continue;
            }
            if (++looked > MAX_THREADS_LOOKED_AT) {
                return new Remains(null, othersRun(directory, reader));
            }
            String threadDirectory = directory + "/task/" + thread;
            int length = reader.readProcessFile(threadDirectory + "/stat");
            if (length >= 0 && !ProcStat.isExiting(reader.buffer(), length)) {
                return new Remains(threadDirectory, true);
            }
        }
        return Remains.NOTHING;
    }

    /**
     * Whether the process in {@code directory} counts more threads than its dead main one: its {@code status}'s
     * {@code Threads:} counts the exited main thread too (a zombie's says 1).
     */
    private static boolean othersRun(String directory, ProcFileReader reader) {
        int length = reader.readToEnd(directory + "/status");
        return length >= 0 && ProcStatus.threads(reader.buffer(), length) > 1;
    }
}
