package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.assertGateShut;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Evidence the gate must not believe: a row naming a live process that is no server (a sleep, init,
 * kthreadd) is unconfirmed, never a member, whatever else the row says.
 */
class NotAServerProcessTest {

    /** The probe: five rows naming five unrelated sleeps, started before the rows registered. */
    @Test
    void fiveSleepsAreNoFleet() {
        Scenario scenario = Scenario.empty();
        long pid = 5100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.row(row(member, pid)).process(pid, Scenario.STARTED, "sleep 600");
            pid++;
        }

        Verdict verdict = scenario.classify();

        assertGateShut(verdict, false);
        assertEquals(0, verdict.runningMemberCount());
        assertEquals(BlockedCode.REGISTRATION_UNCONFIRMED, verdict.blockedReason());
        assertEquals(List.of("registration_unconfirmed", "missing_member"), codes(verdict));
        assertEquals(5, verdict.unverifiedRegistrations().size());
        assertTrue(verdict.unverifiedRegistrations().stream()
                .allMatch(flagged -> flagged.reason() == UnverifiedReason.NOT_A_SERVER_PROCESS));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void initAndKthreaddAreNoMembers(long pid) {
        Scenario scenario = Scenario.healthyFive();
        scenario.row(row(member("author"), pid).with(r -> r.runtimeId = "rt-kernel"))
                .process(pid, Instant.parse("2026-07-01T00:00:00Z"), pid == 1 ? "/sbin/init splash" : "");

        Verdict verdict = scenario.classify();

        assertEquals(5, verdict.runningMemberCount());
        assertEquals(List.of("registration_unconfirmed"), codes(verdict));
        assertEquals("rt-kernel", verdict.unverifiedRegistrations().get(0).instance().runtimeId());
        assertEquals("not_a_server_process", verdict.unverifiedRegistrations().get(0).reason().code());
    }

    /** The contract's rule order: 4c (not a server) is checked before 5 (started after registering). */
    @Test
    void aRecycledPidNowRunningSomethingElseIsUnconfirmedNotStale() {
        Scenario scenario = Scenario.healthyFive();
        scenario.removeProcess(4100).process(4100, RowBuilder.REGISTERED.plusSeconds(5), "sleep 600");

        Verdict verdict = scenario.classify();

        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals("not_a_server_process", verdict.unverifiedRegistrations().get(0).reason().code());
        assertEquals(List.of("registration_unconfirmed", "missing_member"), codes(verdict));
    }
}
