package dev.fleet.domain.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Stated;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.Identities;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.port.out.HeartbeatScheduler;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.MonotonicClock;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ServerLifecycleServiceTest {

    private static final Duration PERIOD = Duration.ofSeconds(30);

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final FixedClock clock = new FixedClock(RowBuilder.REGISTERED);
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AtomicInteger ids = new AtomicInteger();
    /** What the operator would read on stderr. */
    private final List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final LifecycleLog log = new LifecycleLog() {
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
    private final ServerLifecycleService lifecycle = new ServerLifecycleService(Identities.controller(4_321), registry, clock, System::nanoTime, scheduler, log, () -> null, () -> "runtime-" + ids.incrementAndGet(), ServerLifecycleService.STOP_DEADLINE);

    @Test
    void startRegistersOnceWithTheIdentitysFactsAndSchedulesTheHeartbeat() {
        RegistrationState state = lifecycle.start(PERIOD);

        assertEquals(List.of("register runtime-1 retention=PT168H"), registry.calls(),
                "the writer migrates only when it must; the lifecycle never forces the changelog");
        Registration row = assertInstanceOf(RegistrationState.Registered.class, state).registration();
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(RegistrationStatus.RUNNING, row.status());
        assertEquals(RowBuilder.REGISTERED, row.registeredAt());
        assertEquals(RowBuilder.REGISTERED, row.lastHeartbeatAt());
        assertEquals(Scenario.STARTED, row.processStartedAt(), "the OS start instant, not the clock");
        assertEquals(4_321, row.pid());
        assertEquals("gitea-controller", row.namespace());
        assertEquals(RowBuilder.COHORT, row.cohortId());
        assertEquals(Stated.of(CohortSource.ENV), row.cohortSource());
        assertEquals(RowBuilder.HEAD, row.startupHead());
        assertEquals(RowBuilder.BOOT, row.bootId());
        assertEquals(Stated.of(Transport.STDIO), row.transport());
        assertEquals(Stated.of(ClientProvenance.CLIENT_MANAGED), row.clientProvenance());
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
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), row.lastHeartbeatAt());
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), registry.rows().get(0).lastHeartbeatAt());
    }

    @Test
    void aHeartbeatThatFindsNoRowRegistersAgainUnderTheSameRuntimeId() {
        lifecycle.start(PERIOD);
        registry.delete("runtime-1");
        clock.advance(PERIOD);

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) lifecycle.state()).registration();
        assertEquals("runtime-1", row.runtimeId(), "one server start, one runtime id");
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), row.registeredAt());
        assertEquals(List.of(row), registry.rows());
        assertEquals(2, registry.count("register"));
    }

    @Test
    void aClockStepThatMovesThisProcesssObservedStartRegistersItAgain() {
        AtomicReference<Instant> observed = new AtomicReference<>(Scenario.STARTED);
        ServerLifecycleService stepped = new ServerLifecycleService(Identities.controller(4_321), registry, clock, System::nanoTime, scheduler, log, observed::get, () -> "runtime-1", ServerLifecycleService.STOP_DEADLINE);
        stepped.start(PERIOD);
        clock.advance(PERIOD);
        observed.set(Scenario.STARTED.plusMillis(900)); // within a second: the same start

        scheduler.tick();

        assertEquals(1, registry.count("register"));
        clock.advance(PERIOD);
        Instant afterStep = Scenario.STARTED.plusSeconds(3_600);
        observed.set(afterStep);

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) stepped.state()).registration();
        assertEquals(2, registry.count("register"));
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(afterStep, row.processStartedAt(), "the start observers now see");
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD).plus(PERIOD), row.registeredAt());
        assertEquals(afterStep, stepped.identity().processStartedAt(), "the runtime context agrees");
    }

    @Test
    void anUnknownObservedStartNeverTriggersARegistration() {
        ServerLifecycleService blind = lifecycleOn(registry, ServerLifecycleService.STOP_DEADLINE);
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
                "markStopped runtime-1 " + RowBuilder.REGISTERED.plusSeconds(5) + " found=true"), registry.calls());
        assertTrue(scheduler.cancelled);
        assertEquals(RegistrationStatus.STOPPED,
                assertInstanceOf(RegistrationState.Registered.class, lifecycle.state()).registration().status());
        Registration row = registry.rows().get(0);
        assertEquals(RegistrationStatus.STOPPED, row.status());
        assertEquals(RowBuilder.REGISTERED.plusSeconds(5), row.stoppedAt());
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


    /** The same registry, for the tests that hold a write in progress. */
    private final BlockingRegistry blocking = new BlockingRegistry(registry);

    /** Generous: these tests assert that a call returns at all, never how fast. */
    private static final Duration HANG = Duration.ofSeconds(60);
    /** A stop deadline short enough to keep the tests quick. */
    private static final Duration SHORT_STOP = Duration.ofMillis(200);

    @Test
    void aStopGivesUpAtItsDeadlineWhileAHeartbeatWaitsForABusyRegistryAndNothingIsWrittenAfter() throws Exception {
        ServerLifecycleService stuck = lifecycleOn(blocking, SHORT_STOP);
        stuck.start(PERIOD);
        registry.delete("runtime-1"); // the next heartbeat would register again
        Thread heartbeat = blocking.heartbeats.enteredBy(scheduler::tick);

        assertTimeoutPreemptively(HANG, stuck::stop, "a stop must not wait for the heartbeat's busy registry");

        blocking.release();
        heartbeat.join(HANG.toMillis());
        scheduler.tick(); // a tick after the stop writes nothing
        assertEquals(0, registry.count("markStopped"), () -> "the lock was never free: " + registry.calls());
        assertEquals(1, registry.count("register"), () -> "no registration after the stop: " + registry.calls());
        assertTrue(registry.rows().isEmpty(), "the heartbeat that waited found no row and did not register again");
    }

    @Test
    void aStopWaitsForAHeartbeatThatFinishesInTimeThenMarksTheRowStopped() throws Exception {
        ServerLifecycleService lifecycle = lifecycleOn(blocking, HANG);
        lifecycle.start(PERIOD);
        Thread heartbeat = blocking.heartbeats.enteredBy(scheduler::tick);
        Thread stop = new Thread(lifecycle::stop);
        stop.start();
        awaitParked(stop); // the stop now waits for the lock the heartbeat holds
        assertTrue(stop.isAlive(), "the stop must wait for the heartbeat in progress");

        blocking.release();
        stop.join(HANG.toMillis());

        assertFalse(stop.isAlive());
        assertEquals(List.of("register runtime-1 retention=PT168H", "heartbeat runtime-1 " + RowBuilder.REGISTERED
                + " found=true", "markStopped runtime-1 " + RowBuilder.REGISTERED + " found=true"), registry.calls());
        assertEquals(RegistrationStatus.STOPPED, registry.rows().get(0).status());
    }

    @Test
    void theStopsDeadlineRunsOnTheMonotonicClock() {
        // Each reading is a minute on from the last: the deadline has passed by the time the stop waits.
        AtomicLong now = new AtomicLong();
        ServerLifecycleService lifecycle = lifecycleOn(blocking, () -> now.getAndAdd(HANG.toNanos()), HANG);
        lifecycle.start(PERIOD);
        blocking.stops.block();

        assertTimeoutPreemptively(HANG, lifecycle::stop, "the stop gives up when its clock says so");

        assertEquals(List.of("register runtime-1 retention=PT168H"), registry.calls(), "the write never completed");
        assertTrue(logged.stream().anyMatch(line -> line.startsWith("ERROR could not mark runtime runtime-1 stopped")),
                logged::toString);
        blocking.release();
    }

    @Test
    void aStopWriteThatOutlastsTheDeadlineIsAbandonedAndNoHeartbeatRegistersAfterIt() throws Exception {
        ServerLifecycleService lifecycle = lifecycleOn(blocking, SHORT_STOP);
        lifecycle.start(PERIOD);
        registry.delete("runtime-1");
        blocking.stops.block();

        assertTimeoutPreemptively(HANG, lifecycle::stop);
        scheduler.tick();
        lifecycle.start(PERIOD); // registers again, were it not stopping

        assertEquals("registered", lifecycle.state().status(), "the stop was never confirmed");
        assertEquals(1, registry.count("register"), registry.calls()::toString);
        blocking.release();
    }

    @Test
    void aSecondStopWaitsForTheFirstWithinTheSameBound() throws Exception {
        ServerLifecycleService lifecycle = lifecycleOn(blocking, HANG);
        lifecycle.start(PERIOD);
        Thread first = blocking.stops.enteredBy(lifecycle::stop);
        AtomicReference<Boolean> secondReturned = new AtomicReference<>(false);
        Thread second = new Thread(() -> {
            lifecycle.stop();
            secondReturned.set(true);
        });
        second.start();
        awaitParked(second);
        assertTrue(second.isAlive() && !secondReturned.get(),
                "the shutdown hook must not let the JVM exit in the middle of the write");

        blocking.release();
        first.join(HANG.toMillis());
        second.join(HANG.toMillis());

        assertTrue(secondReturned.get());
        assertEquals(1, registry.count("markStopped"));
    }

    @Test
    void toolCallsWaitForTheFirstRegistrationAttemptAndNoLonger() throws Exception {
        ServerLifecycleService lifecycle = lifecycleOn(blocking, HANG);
        assertFalse(lifecycle.awaitRegistrationAttempt(Duration.ofMillis(50)), "no attempt yet: the wait times out");
        Thread start = blocking.registrations.enteredBy(() -> lifecycle.start(PERIOD));
        AtomicReference<RegistrationState> seen = new AtomicReference<>();
        Thread call = new Thread(() -> {
            lifecycle.awaitRegistrationAttempt(HANG);
            seen.set(lifecycle.state());
        });
        call.start();
        awaitParked(call);
        assertTrue(call.isAlive() && seen.get() == null, "still waiting while the registration is under way");

        blocking.release();
        call.join(HANG.toMillis());
        start.join(HANG.toMillis());

        assertEquals("registered", seen.get().status());
        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO), "later calls do not wait");
    }

    @Test
    void aFailedFirstAttemptAlsoEndsTheWait() {
        registry.failRegistrationsWith(new IllegalStateException("disk full"));
        lifecycle.start(PERIOD);

        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO));
        assertEquals("failed", lifecycle.state().status());
    }

    @Test
    void aStopReleasesCallsWaitingForARegistrationThatWillNotCome() {
        lifecycle.stop();

        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO));
    }

    /** A lifecycle of the controller writing through {@code writer}, every registration as {@code runtime-1}. */
    private ServerLifecycleService lifecycleOn(RegistryWriter writer, Duration stopDeadline) {
        return lifecycleOn(writer, System::nanoTime, stopDeadline);
    }

    private ServerLifecycleService lifecycleOn(RegistryWriter writer, MonotonicClock elapsed, Duration stopDeadline) {
        return new ServerLifecycleService(Identities.controller(4_321), writer, clock, elapsed, scheduler, log,
                () -> null, () -> "runtime-1", stopDeadline);
    }

    /**
     * Waits until {@code thread} has parked (waiting, with or without a timeout) or ended: a thread
     * that should wait is then seen waiting, never merely not yet scheduled.
     */
    private static void awaitParked(Thread thread) throws InterruptedException {
        long giveUp = System.nanoTime() + HANG.toNanos();
        while (!Set.of(Thread.State.WAITING, Thread.State.TIMED_WAITING, Thread.State.TERMINATED)
                .contains(thread.getState())) {
            assertTrue(System.nanoTime() < giveUp, () -> thread.getName() + " never waited: " + thread.getState());
            Thread.sleep(1);
        }
    }

    /**
     * The in-memory registry, with calls that can be made to block until released, as a registry
     * another process holds locked makes them wait out their busy timeouts.
     */
    private static final class BlockingRegistry implements RegistryWriter {
        private final InMemoryRegistry delegate;
        private final CountDownLatch release = new CountDownLatch(1);
        final Gate heartbeats = new Gate();
        final Gate stops = new Gate();
        final Gate registrations = new Gate();

        BlockingRegistry(InMemoryRegistry delegate) {
            this.delegate = delegate;
        }

        void release() {
            release.countDown();
        }

        @Override
        public void migrate() {
            delegate.migrate();
        }

        @Override
        public Registration register(Registration registration, Optional<Duration> retention) {
            registrations.pass();
            return delegate.register(registration, retention);
        }

        @Override
        public boolean heartbeat(String runtimeId, Instant at) {
            heartbeats.pass();
            return delegate.heartbeat(runtimeId, at);
        }

        @Override
        public boolean markStopped(String runtimeId, Instant at) {
            stops.pass();
            return delegate.markStopped(runtimeId, at);
        }

        /** One kind of call: once blocked, a call says that it entered, then waits for the release. */
        final class Gate {
            private final CountDownLatch entered = new CountDownLatch(1);
            private volatile boolean blocked;

            void block() {
                blocked = true;
            }

            /** Blocks this kind of call, makes one in a new thread, and returns that thread once the call is inside. */
            Thread enteredBy(Runnable call) throws InterruptedException {
                blocked = true;
                Thread caller = new Thread(call);
                caller.start();
                assertTrue(entered.await(HANG.toMillis(), TimeUnit.MILLISECONDS));
                return caller;
            }

            private void pass() {
                if (blocked) {
                    entered.countDown();
                    awaitRelease();
                }
            }
        }

        private void awaitRelease() {
            try {
                release.await(HANG.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
