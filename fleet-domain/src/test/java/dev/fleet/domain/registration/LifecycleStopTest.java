package dev.fleet.domain.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.lifecycle.RegistrationState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A server's stop: its row marked stopped exactly once and the heartbeat ended; and, with the registry
 * busy, a stop that waits for a write in progress only until its deadline (on the monotonic clock),
 * after which nothing is written, not even by a heartbeat that was waiting.
 */
class LifecycleStopTest extends ServerLifecycleFixture {

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
                assertInstanceOf(RegistrationState.Registered.class, lifecycle.state()).registration().tenure()
                        .status());
        Registration row = registry.rows().get(0);
        assertEquals(RegistrationStatus.STOPPED, row.tenure().status());
        assertEquals(RowBuilder.REGISTERED.plusSeconds(5), row.tenure().stoppedAt());
    }

    @Test
    void aStopBeforeRegistrationWritesNothingAndPreventsRegistration() {
        lifecycle.stop();

        assertEquals("pending", lifecycle.start(PERIOD).status());
        assertEquals(List.of(), registry.calls());
    }

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
        assertTrue(logged.stream().anyMatch(line -> line.startsWith("ERROR could not mark this server stopped")
                && line.contains("a heartbeat still waits")), () -> String.join("\n", logged));
    }

    /**
     * A stop while the first registration still waits for the registry (its first migration, say) says
     * so: it blamed a heartbeat and a row left running, where there is none.
     */
    @Test
    void aStopWhileTheFirstRegistrationWaitsSaysNoRowIsLeftRunning() throws Exception {
        ServerLifecycleService stuck = lifecycleOn(blocking, SHORT_STOP);
        Thread registering = blocking.registrations.enteredBy(() -> stuck.start(PERIOD));

        assertTimeoutPreemptively(HANG, stuck::stop, "a stop must not wait for the registration's busy registry");

        blocking.release();
        registering.join(HANG.toMillis());
        assertTrue(logged.stream().anyMatch(line -> line.startsWith("ERROR exiting before this server's registration "
                + "finished") && line.contains("no row is left running")), () -> String.join("\n", logged));
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
        assertEquals(RegistrationStatus.STOPPED, registry.rows().get(0).tenure().status());
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
}
