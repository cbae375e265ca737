package dev.fleet.mcp.relay;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a wrapped server's whole tree on the clock real clients keep (the contract, §12.1): they close
 * the server's stdin, wait about 2 s (the TypeScript SDK's era probe: not at all), send SIGTERM and
 * SIGKILL 1 or 2 s later, so a member slower than that is killed mid-way and leaves its server behind.
 *
 * <p>Its stdin closed, the tree has {@link #EXIT_GRACE} to be gone by itself; then SIGTERM to every
 * process of it, {@link #TERM_GRACE}, then SIGKILL to what remains, sent again to whatever a dying
 * process forked meanwhile, for at most {@link #KILL_WAIT}. A signal to this member (SIGTERM, SIGINT)
 * skips the first wait, before it or during it. So nothing is left within 2 s of EOF and 1 s of
 * SIGTERM. The tree is looked at every {@value #POLL_MILLIS} ms; it is gone when two looks in a row
 * find nothing running (one look can miss a process whose parent exits while {@code /proc} is read).
 */
final class TreeTeardown {

    /** How long the tree has to exit on its own once the child's stdin is closed. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(1);
    /** How long the tree has after SIGTERM before SIGKILL. */
    static final Duration TERM_GRACE = Duration.ofMillis(500);
    /** How long SIGKILL is sent again and waited for: a process it reaches dies at once. */
    static final Duration KILL_WAIT = Duration.ofMillis(500);
    private static final long POLL_MILLIS = 20;
    private static final Logger LOG = LoggerFactory.getLogger(TreeTeardown.class);

    private final ServedChild child;

    TreeTeardown(ServedChild child) {
        this.child = child;
    }

    void run(Runnable closeStdin, CountDownLatch signalled) throws InterruptedException {
        closeStdin.run();
        if (signalled.getCount() == 0) {
            LOG.info("sending SIGTERM to the wrapped server's processes at once");
        } else if (goneWithin(EXIT_GRACE, signalled)) {
            return;
        } else if (signalled.getCount() == 0) {
            LOG.info("a stop signal arrived: sending SIGTERM to the wrapped server's processes at once");
        } else {
            LOG.info("the wrapped server's processes were not gone {} ms after its stdin closed: sending SIGTERM "
                    + "to them", EXIT_GRACE.toMillis());
        }
        child.signalTree(false);
        if (goneWithin(TERM_GRACE, null)) {
            return;
        }
        LOG.info("the wrapped server's processes outlived SIGTERM by {} ms: sending SIGKILL", TERM_GRACE.toMillis());
        long deadline = System.nanoTime() + KILL_WAIT.toNanos();
        do {
            child.signalTree(true);
            if (gone()) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        } while (System.nanoTime() < deadline);
        LOG.warn("some of the wrapped server's processes outlived SIGKILL by {} ms: {}", KILL_WAIT.toMillis(),
                child.runningTree().stream().map(ProcessHandle::pid).toList());
    }

    /** Waits up to {@code bound} for the tree to be gone; false at once when {@code interrupting} is counted down. */
    private boolean goneWithin(Duration bound, CountDownLatch interrupting) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!gone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            long step = Math.min(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS), left);
            if (interrupting == null) {
                TimeUnit.NANOSECONDS.sleep(step);
            } else if (interrupting.await(step, TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    private boolean gone() {
        return child.exited() && child.runningTree().isEmpty() && child.runningTree().isEmpty();
    }

}
