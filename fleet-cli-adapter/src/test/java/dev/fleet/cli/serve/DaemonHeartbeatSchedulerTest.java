package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
}
