package dev.fleet.domain.registration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.Identities;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.port.out.HeartbeatScheduler;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.MonotonicClock;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the tests of the server's lifecycle start from: the controller's lifecycle on an in-memory
 * registry, a fixed clock, heartbeats run by hand and a log the test can read; and, for the tests
 * that hold a write in progress, the same registry behind calls that block until released.
 */
abstract class ServerLifecycleFixture {

    static final Duration PERIOD = Duration.ofSeconds(30);
    /** Generous: these tests assert that a call returns at all, never how fast. */
    static final Duration HANG = Duration.ofSeconds(60);
    /** A stop deadline short enough to keep the tests quick. */
    static final Duration SHORT_STOP = Duration.ofMillis(200);

    final InMemoryRegistry registry = new InMemoryRegistry();
    final FixedClock clock = new FixedClock(RowBuilder.REGISTERED);
    final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicInteger ids = new AtomicInteger();
    /** What the operator would read on stderr. */
    final List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    final LifecycleLog log = new LifecycleLog() {
        @Override
        public void info(String message) {
            logged.add("INFO " + message);
        }

        @Override
        public void warn(String message) {
            logged.add("WARN " + message);
        }

        @Override
        public void error(String message) {
            logged.add("ERROR " + message);
        }
    };
    final ServerLifecycleService lifecycle = new ServerLifecycleService(Identities.controller(4_321), registry, clock, System::nanoTime, scheduler, log, () -> null, () -> "runtime-" + ids.incrementAndGet(), ServerLifecycleService.STOP_DEADLINE);
    /** The same registry, for the tests that hold a write in progress. */
    final BlockingRegistry blocking = new BlockingRegistry(registry);

    /** A lifecycle of the controller writing through {@code writer}, every registration as {@code runtime-1}. */
    ServerLifecycleService lifecycleOn(RegistryWriter writer, Duration stopDeadline) {
        return lifecycleOn(writer, System::nanoTime, stopDeadline);
    }

    ServerLifecycleService lifecycleOn(RegistryWriter writer, MonotonicClock elapsed, Duration stopDeadline) {
        return new ServerLifecycleService(Identities.controller(4_321), writer, clock, elapsed, scheduler, log,
                () -> null, () -> "runtime-1", stopDeadline);
    }

    /**
     * Waits until {@code thread} has parked (waiting, with or without a timeout) or ended: a thread
     * that should wait is then seen waiting, never merely not yet scheduled.
     */
    static void awaitParked(Thread thread) throws InterruptedException {
        long giveUp = System.nanoTime() + HANG.toNanos();
        while (!Set.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.TERMINATED)
                .contains(thread.getState())) {
            assertTrue(System.nanoTime() < giveUp, () -> thread.getName() + " never waited: " + thread.getState());
            Thread.sleep(1);
        }
    }

    /** Captures the tick so tests run heartbeats by hand, with no clock and no waiting. */
    static final class ManualScheduler implements HeartbeatScheduler {
        BooleanSupplier tick;
        Duration period;
        Duration retry;
        boolean cancelled;

        @Override
        public Runnable schedule(BooleanSupplier tick, Duration period, Duration retry) {
            this.tick = tick;
            this.period = period;
            this.retry = retry;
            return () -> cancelled = true;
        }

        /** One tick; whether it says its write went through (else the next comes after {@link #retry}). */
        boolean tick() {
            return tick.getAsBoolean();
        }
    }
}
