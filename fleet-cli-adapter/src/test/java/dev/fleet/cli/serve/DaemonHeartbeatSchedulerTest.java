package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DaemonHeartbeatSchedulerTest {

    @Test
    void ticksRunOnADaemonThreadAndAFailingTickDoesNotEndTheSchedule() throws Exception {
        CountDownLatch ticked = new CountDownLatch(2);
        AtomicReference<Thread> thread = new AtomicReference<>();
        Runnable cancel = new DaemonHeartbeatScheduler().schedule(() -> {
            thread.set(Thread.currentThread());
            ticked.countDown();
            throw new IllegalStateException("a failing tick must not end the schedule");
        }, Duration.ofMillis(10));
        try {
            assertTrue(ticked.await(30, TimeUnit.SECONDS), "ticks keep coming after a throw");
            assertTrue(thread.get().isDaemon());
        } finally {
            cancel.run();
        }
    }

    /**
     * A tick whose write failed is followed by the next after the retry, not a whole period later (a registry back
     * from an outage heard from its servers a heartbeat's period later: another host read their leases as lapsed);
     * once one goes through, the period holds again.
     */
    @Test
    void aTickWhoseWriteFailedIsTriedAgainAfterTheRetryThenEveryPeriod() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        long[] at = new long[4];
        CountDownLatch written = new CountDownLatch(1);
        Duration period = Patience.scaled(Duration.ofSeconds(5));
        Runnable cancel = new DaemonHeartbeatScheduler().schedule(() -> {
            int tick = ticks.incrementAndGet();
            at[Math.min(tick, 3)] = System.nanoTime();
            if (tick == 3) {
                written.countDown();
            }
            return tick >= 3;
        }, period, Duration.ofMillis(10));
        try {
            assertTrue(written.await(period.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS), "three ticks");
            assertTrue(Duration.ofNanos(at[3] - at[1]).compareTo(period) < 0,
                    "two failed ticks were tried again sooner than a period: " + Duration.ofNanos(at[3] - at[1]));
            Thread.sleep(200);
            assertEquals(3, ticks.get(), "after a written tick, the next waits a period");
        } finally {
            cancel.run();
        }
    }

    /**
     * Failures in a row are tried again ever less often, the retry doubling up to the period: a write that never
     * goes through (a role that may not insert) is not tried, and logged, every 2 s for ever. Only lower bounds are
     * asserted: a loaded host makes every wait longer, never shorter.
     */
    @Test
    void failuresInARowBackOffToThePeriod() throws Exception {
        long[] at = new long[5];
        AtomicInteger ticks = new AtomicInteger();
        CountDownLatch five = new CountDownLatch(1);
        Runnable cancel = new DaemonHeartbeatScheduler().schedule(() -> {
            int tick = ticks.getAndIncrement();
            if (tick < at.length) {
                at[tick] = System.nanoTime();
            }
            if (tick == at.length - 1) {
                five.countDown();
            }
            return false;
        }, Duration.ofMillis(400), Duration.ofMillis(100));
        try {
            assertTrue(five.await(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS));
        } finally {
            cancel.run();
        }
        long[] least = {100, 200, 400, 400};
        for (int i = 0; i < least.length; i++) {
            long waited = (at[i + 1] - at[i]) / 1_000_000;
            assertTrue(waited >= least[i] - 5, "wait " + (i + 1) + " after a failure: " + waited + " ms, at least "
                    + least[i] + " ms");
        }
    }
}
