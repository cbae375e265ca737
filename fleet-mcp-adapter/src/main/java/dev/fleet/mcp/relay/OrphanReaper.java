package dev.fleet.mcp.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reaps the orphans this member adopted as a child subreaper once they exit: a JVM reaps only the
 * processes it started, so each would otherwise stay a zombie of this process (a slot of the process
 * table, for as long as a session may run: days).
 *
 * <p>One daemon thread sleeps in {@code waitid(P_ALL, WNOWAIT)} until some child has exited (no polling
 * while nothing happens), then reaps that pid alone ({@code waitpid(pid, WNOHANG)}). The one child the
 * JDK started, the served command, is left to the JDK, which waits for it and wants its status: this
 * member starts no other process once the child runs (were it to, those pids would be left alone here
 * as well). The thread ends once this process has no child left.
 */
final class OrphanReaper {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

    private OrphanReaper() {
    }

    /** Starts reaping the exited children of this process other than {@code started}, the JDK's own. */
    static void start(NativeProcesses calls, Process started) {
        Thread thread = new Thread(() -> reap(calls, started), "fleet-relay-reaper");
        thread.setDaemon(true);
        thread.start();
    }

    private static void reap(NativeProcesses calls, Process started) {
        while (true) {
            long pid = calls.awaitExitedChild();
            if (pid == NativeProcesses.NO_CHILD) {
                return;
            }
            if (pid == started.pid()) {
                // The JDK's own child: its reaper thread takes it (and its status) at once; wait for that.
                try {
                    started.waitFor();
                } catch (InterruptedException e) {
                    return;
                }
            } else if (calls.reap(pid)) {
                LOG.debug("reaped pid {}, an orphan of the wrapped server's that had exited", pid);
            } else {
                pause(); // not reaped (some other waiter took it meanwhile): never spin on it
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
