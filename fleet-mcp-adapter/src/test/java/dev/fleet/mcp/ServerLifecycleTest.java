package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ServerLifecycleTest {

    private static final Duration PERIOD = Duration.ofSeconds(30);

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final FixedClock clock = new FixedClock(Fixtures.REGISTERED);
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicInteger ids = new AtomicInteger();
    private final ServerLifecycle lifecycle = new ServerLifecycle(Fixtures.identity(4_321), registry, clock,
            () -> "runtime-" + ids.incrementAndGet(), scheduler);

    @Test
    void startRegistersOnceWithTheIdentitysFactsAndSchedulesTheHeartbeat() {
        RegistrationState state = lifecycle.start(PERIOD);

        assertEquals(List.of("register runtime-1 retention=PT168H"), registry.calls(),
                "the writer migrates only when it must; the lifecycle never forces the changelog");
        Registration row = assertInstanceOf(RegistrationState.Registered.class, state).registration();
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(RegistrationStatus.RUNNING, row.status());
        assertEquals(Fixtures.REGISTERED, row.registeredAt());
        assertEquals(Fixtures.REGISTERED, row.lastHeartbeatAt());
        assertEquals(Fixtures.STARTED, row.processStartedAt(), "the OS start instant, not the clock");
        assertEquals(4_321, row.pid());
        assertEquals("gitea-controller", row.namespace());
        assertEquals(Fixtures.COHORT, row.cohortId());
        assertEquals("env", row.cohortSource());
        assertEquals(Fixtures.HEAD, row.startupHead());
        assertEquals(Fixtures.BOOT, row.bootId());
        assertEquals("stdio", row.transport());
        assertEquals("client_managed", row.clientProvenance());
        assertNull(row.stoppedAt());
        assertEquals(List.of(row), registry.rows());
        assertEquals(PERIOD, scheduler.period);
    }

    @Test
    void aHeartbeatAdvancesTheRowAndTheReportedState() {
        lifecycle.start(PERIOD);
        clock.advance(PERIOD);

        scheduler.tick();

        assertEquals(1, registry.count("heartbeat"));
        assertEquals(1, registry.count("register"), "no new registration while the row exists");
        Registration row = ((RegistrationState.Registered) lifecycle.state()).registration();
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(Fixtures.REGISTERED.plus(PERIOD), row.lastHeartbeatAt());
        assertEquals(Fixtures.REGISTERED.plus(PERIOD), registry.rows().get(0).lastHeartbeatAt());
    }

    @Test
    void aHeartbeatThatFindsNoRowRegistersAgainUnderTheSameRuntimeId() {
        lifecycle.start(PERIOD);
        registry.delete("runtime-1");
        clock.advance(PERIOD);

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) lifecycle.state()).registration();
        assertEquals("runtime-1", row.runtimeId(), "one server start, one runtime id");
        assertEquals(Fixtures.REGISTERED.plus(PERIOD), row.registeredAt());
        assertEquals(List.of(row), registry.rows());
        assertEquals(2, registry.count("register"));
    }

    @Test
    void aClockStepThatMovesThisProcesssObservedStartRegistersItAgain() {
        AtomicReference<Instant> observed = new AtomicReference<>(Fixtures.STARTED);
        ServerLifecycle stepped = new ServerLifecycle(Fixtures.identity(4_321), registry, clock,
                () -> "runtime-1", scheduler, observed::get);
        stepped.start(PERIOD);
        clock.advance(PERIOD);
        observed.set(Fixtures.STARTED.plusMillis(900)); // within a second: the same start

        scheduler.tick();

        assertEquals(1, registry.count("register"));
        clock.advance(PERIOD);
        Instant afterStep = Fixtures.STARTED.plusSeconds(3_600);
        observed.set(afterStep);

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) stepped.state()).registration();
        assertEquals(2, registry.count("register"));
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(afterStep, row.processStartedAt(), "the start observers now see");
        assertEquals(Fixtures.REGISTERED.plus(PERIOD).plus(PERIOD), row.registeredAt());
        assertEquals(afterStep, stepped.identity().processStartedAt(), "the runtime context agrees");
    }

    @Test
    void anUnknownObservedStartNeverTriggersARegistration() {
        ServerLifecycle blind = new ServerLifecycle(Fixtures.identity(4_321), registry, clock,
                () -> "runtime-1", scheduler, () -> null);
        blind.start(PERIOD);
        clock.advance(PERIOD);

        scheduler.tick();

        assertEquals(1, registry.count("register"));
        assertEquals(1, registry.count("heartbeat"));
    }

    @Test
    void aFailedRegistrationIsKeptForTheRuntimeContextAndRetriedAtTheNextHeartbeat() {
        registry.failRegistrationsWith(new IllegalStateException("database is locked"));

        RegistrationState state = lifecycle.start(PERIOD);

        RegistrationState.Failed failed = assertInstanceOf(RegistrationState.Failed.class, state);
        assertEquals("failed", failed.status());
        assertEquals("database is locked", failed.error());
        assertEquals("runtime-1", failed.runtimeId());
        assertNotNull(scheduler.tick, "the server keeps running: heartbeats are scheduled anyway");

        registry.failRegistrationsWith(null);
        scheduler.tick();

        assertEquals("registered", lifecycle.state().status());
        assertEquals("runtime-1", lifecycle.state().runtimeId());
    }

    @Test
    void stopMarksTheRowStoppedExactlyOnceAndEndsTheHeartbeat() {
        lifecycle.start(PERIOD);
        clock.advance(Duration.ofSeconds(5));

        lifecycle.stop();
        lifecycle.stop();
        scheduler.tick(); // a tick that raced the stop must not write

        assertEquals(List.of("register runtime-1 retention=PT168H",
                "markStopped runtime-1 " + Fixtures.REGISTERED.plusSeconds(5) + " found=true"), registry.calls());
        assertTrue(scheduler.cancelled);
        assertTrue(lifecycle.isStopped());
        Registration row = registry.rows().get(0);
        assertEquals(RegistrationStatus.STOPPED, row.status());
        assertEquals(Fixtures.REGISTERED.plusSeconds(5), row.stoppedAt());
    }

    @Test
    void aStopBeforeRegistrationWritesNothingAndPreventsRegistration() {
        lifecycle.stop();

        assertEquals("pending", lifecycle.start(PERIOD).status());
        assertEquals(List.of(), registry.calls());
    }

    @Test
    void aNonPositiveHeartbeatPeriodIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> lifecycle.start(Duration.ZERO));
    }

    @Test
    void theRealSchedulerRunsTicksOnADaemonThread() throws Exception {
        CountDownLatch ticked = new CountDownLatch(2);
        AtomicReference<Thread> thread = new AtomicReference<>();
        Runnable cancel = HeartbeatScheduler.daemonThread().schedule(() -> {
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

    /** Captures the tick so tests run heartbeats by hand, with no clock and no waiting. */
    private static final class ManualScheduler implements HeartbeatScheduler {
        Runnable tick;
        Duration period;
        boolean cancelled;

        @Override
        public Runnable schedule(Runnable tick, Duration period) {
            this.tick = tick;
            this.period = period;
            return () -> cancelled = true;
        }

        void tick() {
            tick.run();
        }
    }
}
