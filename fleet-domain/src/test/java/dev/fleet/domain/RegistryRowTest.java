package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class RegistryRowTest {

    private static final RosterMember AUTHOR = Roster.defaultRoster().members().get(0);

    private static MalformedReason malformedBy(Consumer<RowBuilder> change) {
        InterpretedRow row = RowBuilder.row(AUTHOR, 100).with(change).build().interpret();
        return assertInstanceOf(MalformedRegistration.class, row).reason();
    }

    @Test
    void aSoundRowRoundTripsThroughRegistration() {
        RegistryRow row = RowBuilder.row(AUTHOR, 100).with(r -> {
            r.processStartedAt = "2026-07-28T01:59:58.500Z";
            r.status = "stopped";
            r.stoppedAt = "2026-07-28T03:00:00.000Z";
        }).build();

        Registration registration = assertInstanceOf(Registration.class, row.interpret());

        assertEquals(row, registration.toRow());
        assertEquals(Instant.parse("2026-07-28T01:59:58.500Z"), registration.process().startedAt());
        assertEquals(RegistrationStatus.STOPPED, registration.tenure().status());
    }

    @Test
    void everyUninterpretableColumnHasItsReason() {
        assertEquals(MalformedReason.RUNTIME_ID_BLANK, malformedBy(r -> r.runtimeId = " "));
        assertEquals(MalformedReason.NAMESPACE_BLANK, malformedBy(r -> r.namespace = null));
        assertEquals(MalformedReason.PID_INVALID, malformedBy(r -> r.pid = null));
        assertEquals(MalformedReason.PID_INVALID, malformedBy(r -> r.pid = -4L));
        // One rule for out-of-range pids, whatever their digits: beyond pid_t, no process has them.
        assertEquals(MalformedReason.PID_INVALID, malformedBy(r -> r.pid = RegistryRow.MAX_PID + 1));
        assertEquals(MalformedReason.PID_INVALID, malformedBy(r -> r.pid = 12_345_678_901_234_567L));
        assertEquals(MalformedReason.PID_INVALID, malformedBy(r -> r.pid = Long.MAX_VALUE));
        assertEquals(MalformedReason.STATUS_UNKNOWN, malformedBy(r -> r.status = "zombie"));
        assertEquals(MalformedReason.REGISTERED_AT_UNPARSEABLE, malformedBy(r -> r.registeredAt = null));
        assertEquals(MalformedReason.LAST_HEARTBEAT_AT_UNPARSEABLE, malformedBy(r -> r.lastHeartbeatAt = "yesterday"));
        assertEquals(MalformedReason.PROCESS_STARTED_AT_UNPARSEABLE, malformedBy(r -> r.processStartedAt = ""));
        assertEquals(MalformedReason.STOPPED_AT_UNPARSEABLE, malformedBy(r -> r.stoppedAt = "soon"));
    }

    @Test
    void aMissingCohortSourceReadsAsUnknown() {
        Registration registration = assertInstanceOf(Registration.class,
                RowBuilder.row(AUTHOR, 100).with(r -> r.cohortSource = null).build().interpret());
        assertEquals(Stated.of(CohortSource.UNKNOWN), registration.cohortSource());
    }

    @Test
    void codedColumnsAreTheirConstantsAndAValueOfAnotherToolIsKeptAsWritten() {
        Registration known = assertInstanceOf(Registration.class, RowBuilder.row(AUTHOR, 100).build().interpret());
        assertEquals(Transport.STDIO, known.transport().known());
        assertEquals(ClientProvenance.CLIENT_MANAGED, known.clientProvenance().known());
        assertEquals(CohortSource.ENV, known.cohortSource().known());

        RegistryRow foreign = RowBuilder.row(AUTHOR, 100).with(r -> {
            r.transport = "sse";
            r.clientProvenance = null;
            r.cohortSource = "ENV";
        }).build();
        Registration registration = assertInstanceOf(Registration.class, foreign.interpret());
        assertEquals(new Stated<Transport>("sse", null), registration.transport());
        assertEquals(Stated.none(), registration.clientProvenance());
        assertEquals(new Stated<CohortSource>("ENV", null), registration.cohortSource());
        assertEquals(foreign, registration.toRow());
    }

    @Test
    void aRegistrationCannotBeBuiltWithoutItsIdentity() {
        Registration sound = assertInstanceOf(Registration.class, RowBuilder.row(AUTHOR, 100).build().interpret());
        assertThrows(IllegalArgumentException.class, () -> sound.toBuilder().runtimeId(" ").build());
        IllegalArgumentException pid = assertThrows(IllegalArgumentException.class,
                () -> sound.toBuilder().runtimeId("rt").pid(0).build());
        assertEquals("registration: pid must be a positive integer, got 0", pid.getMessage());
    }

    @Test
    void theWrappedServersColumnsRoundTripThroughRegistration() {
        RegistryRow row = RowBuilder.row(AUTHOR, 100)
                .wraps("python3 server.py --token ***", 101, Instant.parse("2026-07-28T01:59:59.120Z")).build();

        Registration registration = assertInstanceOf(Registration.class, row.interpret());

        assertEquals("python3 server.py --token ***", registration.server().command());
        assertEquals(101L, registration.server().pid());
        assertEquals(Instant.parse("2026-07-28T01:59:59.120Z"), registration.server().startedAt());
        assertEquals(row, registration.toRow());
    }

    /**
     * As the parent columns: a server pid that names no process is kept as recorded (a server that is not
     * alive, never an unknown one, which would fail open), a start that names nothing is unknown, and the
     * row stays sound.
     */
    @Test
    void aServerPidThatNamesNothingIsKeptAndAStartThatNamesNothingIsUnknown() {
        for (Long pid : new Long[] {0L, -3L, RegistryRow.MAX_PID + 1}) {
            Registration registration = assertInstanceOf(Registration.class,
                    RowBuilder.row(AUTHOR, 100).with(r -> r.serverPid = pid).build().interpret());
            assertEquals(pid, registration.server().pid(), "server_pid " + pid);
        }
        Registration unparseable = assertInstanceOf(Registration.class,
                RowBuilder.row(AUTHOR, 100).with(r -> {
                    r.serverPid = 101L;
                    r.serverStartedAt = "just now";
                }).build().interpret());
        assertEquals(101L, unparseable.server().pid());
        assertEquals(null, unparseable.server().startedAt());
    }
}
