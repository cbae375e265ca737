package dev.fleet.domain.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Stated;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.Identities;
import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServedServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A server's registration while it runs: written once at the start with the identity's facts, kept
 * by each heartbeat, written again (same runtime id) when its row is gone or its observed start moved,
 * and retried at the next heartbeat when the first write failed.
 */
class LifecycleRegistrationTest extends ServerLifecycleFixture {

    @Test
    void startRegistersOnceWithTheIdentitysFactsAndSchedulesTheHeartbeat() {
        RegistrationState state = lifecycle.start(PERIOD);

        assertEquals(List.of("register runtime-1 retention=PT168H"), registry.calls(),
                "the writer migrates only when it must; the lifecycle never forces the changelog");
        Registration row = assertInstanceOf(RegistrationState.Registered.class, state).registration();
        assertEquals("runtime-1", row.runtimeId());
        assertEquals(RegistrationStatus.RUNNING, row.tenure().status());
        assertEquals(RowBuilder.REGISTERED, row.tenure().registeredAt());
        assertEquals(RowBuilder.REGISTERED, row.tenure().lastHeartbeatAt());
        assertEquals(Scenario.STARTED, row.process().startedAt(), "the OS start instant, not the clock");
        assertEquals(4_321, row.process().pid());
        assertEquals("gitea-controller", row.namespace());
        assertEquals(RowBuilder.COHORT, row.cohortId());
        assertEquals(Stated.of(CohortSource.ENV), row.cohortSource());
        assertEquals(RowBuilder.HEAD, row.startupHead());
        assertEquals(RowBuilder.BOOT, row.process().bootId());
        assertEquals(Stated.of(Transport.STDIO), row.transport());
        assertEquals(Stated.of(ClientProvenance.CLIENT_MANAGED), row.clientProvenance());
        assertNull(row.tenure().stoppedAt());
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
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), row.tenure().lastHeartbeatAt());
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), registry.rows().get(0).tenure().lastHeartbeatAt());
    }

    /**
     * A heartbeat whose write failed (the registry is down) says so to the scheduler, which tries again after the
     * retry rather than a whole period later: another host's readers judge the row's lease lapsed until it is
     * written. Once a write goes through, the period holds again.
     */
    @Test
    void aHeartbeatWhoseWriteFailedAsksForTheRetryUntilOneGoesThrough() {
        lifecycle.start(PERIOD);
        assertEquals(ServerLifecycleService.HEARTBEAT_RETRY, scheduler.retry);
        registry.failHeartbeatsWith(new IllegalStateException("registry unreachable"));
        clock.advance(PERIOD);

        assertFalse(scheduler.tick(), "the write failed: try again soon");
        assertFalse(scheduler.tick(), "and again");
        registry.failHeartbeatsWith(null);
        clock.advance(ServerLifecycleService.HEARTBEAT_RETRY);

        assertTrue(scheduler.tick(), "written: the next a period later");
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD).plus(ServerLifecycleService.HEARTBEAT_RETRY),
                registry.rows().get(0).tenure().lastHeartbeatAt());
    }

    @Test
    void aFailedRegistrationAsksForTheRetry() {
        registry.failRegistrationsWith(new IllegalStateException("registry unreachable"));
        lifecycle.start(PERIOD);
        clock.advance(PERIOD);

        assertFalse(scheduler.tick(), "still not registered: try again soon");
        registry.failRegistrationsWith(null);
        assertTrue(scheduler.tick(), "registered");
    }

    @Test
    void aHeartbeatThatFindsNoRowRegistersAgainUnderTheSameRuntimeId() {
        lifecycle.start(PERIOD);
        registry.delete("runtime-1");
        clock.advance(PERIOD);

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) lifecycle.state()).registration();
        assertEquals("runtime-1", row.runtimeId(), "one server start, one runtime id");
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD), row.tenure().registeredAt());
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
        assertEquals(afterStep, row.process().startedAt(), "the start observers now see");
        assertEquals(RowBuilder.REGISTERED.plus(PERIOD).plus(PERIOD), row.tenure().registeredAt());
        assertEquals(afterStep, stepped.identity().processStartedAt(), "the runtime context agrees");
    }

    /**
     * Every start an observer reads comes from the boot time, which a clock step moves for the wrapped
     * server as for this process: its recorded start moves by as much, or the server would read as
     * exited (and each process it runs as a stray) until the member restarts.
     */
    @Test
    void aClockStepMovesTheWrappedServersRecordedStartByAsMuch() {
        Instant childStarted = Scenario.STARTED.plusMillis(450);
        AtomicReference<Instant> observed = new AtomicReference<>(Scenario.STARTED);
        ServerLifecycleService wrapping = new ServerLifecycleService(
                Identities.controller(4_321).withServer(new ServedServer("python3 server.py", 4_322, childStarted)),
                registry, clock, System::nanoTime, scheduler, log, observed::get, () -> "runtime-1",
                ServerLifecycleService.STOP_DEADLINE);
        wrapping.start(PERIOD);
        clock.advance(PERIOD);
        observed.set(Scenario.STARTED.minusSeconds(5)); // the wall clock stepped back 5 s

        scheduler.tick();

        Registration row = ((RegistrationState.Registered) wrapping.state()).registration();
        assertEquals(2, registry.count("register"));
        assertEquals(Scenario.STARTED.minusSeconds(5), row.process().startedAt());
        assertEquals(childStarted.minusSeconds(5), row.server().startedAt(), "the child's start, stepped alike");
        assertEquals(4_322L, row.server().pid());
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
    void aNonPositiveHeartbeatPeriodIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> lifecycle.start(Duration.ZERO));
    }
}
