package dev.fleet.observer;

import java.io.File;

/**
 * A process whose main thread has exited while its other threads run on: its main thread is a zombie
 * ({@code Z}) and shows an empty {@code cmdline}, no open files and no memory, yet the process lives
 * ({@code kill -0} succeeds) and runs its program. Any process may do this (one {@code exit} system call
 * on its main thread), so a look that took the main thread for the process would miss a sixth server.
 * What the main thread no longer shows is read from a live thread's {@code task/TID} directory,
 * which shares the process's memory and open files; its parent and start stay the main thread's.
 */
final class ExitedLeaders {

    /** Threads looked at, at most: any live one will do, and threads that exit are reaped at once. */
    static final int MAX_THREADS_LOOKED_AT = 64;

    private ExitedLeaders() {
    }

    /**
     * Whether the process in {@code directory}, its main thread seen dead, still runs another thread: its
     * {@code status} counts more than one ({@code Threads:} counts the exited main thread too; a zombie's says
     * 1). This holds where the threads cannot be listed or looked at one by one: a process is never taken
     * for dead on what could not be read. Overwrites the reader's buffer.
     */
    static boolean othersRun(String directory, ProcFileReader reader) {
        int length = reader.readToEnd(directory + "/status");
        return length >= 0 && ProcStatus.threads(reader.buffer(), length) > 1;
    }

    /**
     * The directory of a live thread of the process in {@code directory} (its {@code /proc/PID}) other
     * than its main thread, which the caller saw dead; null when there is none (a zombie waiting to be
     * reaped) or the process has gone. Overwrites the reader's buffer.
     */
    static String liveThread(String directory, ProcFileReader reader) {
        String[] threads = new File(directory + "/task").list();
        if (threads == null) {
            return null;
        }
        String pid = directory.substring(directory.lastIndexOf('/') + 1);
        int looked = 0;
        for (String thread : threads) {
            if (thread.equals(pid) || ProcfsScan.pidOf(thread) <= 0) {
                continue;
            }
            if (++looked > MAX_THREADS_LOOKED_AT) {
                return null;
            }
            String threadDirectory = directory + "/task/" + thread;
            int length = reader.readProcessFile(threadDirectory + "/stat");
            if (length >= 0 && !ProcStat.isDead(reader.buffer(), length)) {
                return threadDirectory;
            }
        }
        return null;
    }
}
