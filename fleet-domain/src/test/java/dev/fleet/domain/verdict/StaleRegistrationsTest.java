package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.assertRunningFive;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static dev.fleet.domain.verdict.ClassifierExamples.reasons;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Running rows that no longer describe a live server (its process gone, its pid recycled, a newer row
 * on the pid, another boot): stale, shown, and alone never a reason to block.
 */
class StaleRegistrationsTest {

    @Test
    void aRegistrationWhoseProcessIsGoneIsStaleAndAloneBlocksNothing() {
        Scenario scenario = Scenario.healthyFive()
                .row(row(member("author"), 9100).with(r -> r.runtimeId = "rt-crashed"));

        Verdict verdict = scenario.classify();

        assertRunningFive(verdict);
        assertEquals(List.of("process_exited"), reasons(verdict.staleRegistrations()));
        assertNull(verdict.staleRegistrations().get(0).instance().observedProcessStartedAt());
    }

    @Test
    void aProcessThatStartedAfterTheRegistrationIsARecycledPid() {
        Scenario scenario = Scenario.healthyFive();
        scenario.removeProcess(4100).process(4100, RowBuilder.REGISTERED.plusSeconds(5),
                Scenario.serveCommand("prgs-author"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
        assertEquals(List.of("unregistered_process", "missing_member"), codes(verdict));
    }

    @Test
    void aStartMoreThanOneSecondFromTheRecordedStartIsARecycledPid() {
        Scenario scenario = healthyFiveWith("author",
                r -> r.processStartedAt = Timestamps.format(Scenario.STARTED.minusMillis(1_001)));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
        assertEquals(4, verdict.runningMemberCount());
    }

    @Test
    void aRecordedStartWithinOneSecondIsTheSameProcess() {
        Scenario scenario = healthyFiveWith("author",
                r -> r.processStartedAt = Timestamps.format(Scenario.STARTED.minusMillis(1_000)));

        assertRunningFive(scenario.classify());
    }

    @Test
    void theServerBehindARecycledPidShowsAsUnregistered() {
        Scenario scenario = Scenario.healthyFive();
        scenario.removeProcess(4100)
                .process(4100, RowBuilder.REGISTERED.plusSeconds(30), Scenario.serveCommand("prgs-author"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
        assertEquals(List.of(4100L), verdict.unregisteredProcesses().stream().map(UnregisteredProcess::pid).toList());
        assertEquals(UnregisteredReason.NO_REGISTRATION, verdict.unregisteredProcesses().get(0).reason());
        assertEquals("unregistered_process", verdict.blockedReason().code());
    }

    @Test
    void twoRunningRowsOnOnePidLeaveOnlyTheNewestLive() {
        Scenario scenario = Scenario.healthyFive().row(row(member("author"), 4100).with(r -> {
            r.runtimeId = "rt-older";
            r.registeredAt = "2026-07-28T01:00:00Z";
            r.lastHeartbeatAt = "2026-07-28T01:00:00Z";
        }));

        Verdict verdict = scenario.classify();

        assertRunningFive(verdict);
        assertEquals(List.of("superseded"), reasons(verdict.staleRegistrations()));
        assertEquals("rt-older", verdict.staleRegistrations().get(0).instance().runtimeId());
    }

    @Test
    void supersededTiesOnRegisteredAtAreBrokenByTheGreaterRuntimeId() {
        Scenario scenario = Scenario.healthyFive()
                .row(row(member("author"), 4100).with(r -> r.runtimeId = "rt-aaa"));

        Verdict verdict = scenario.classify();

        // "rt-prgs-author-4100" > "rt-aaa": the default row stays live.
        assertEquals("rt-aaa", verdict.staleRegistrations().get(0).instance().runtimeId());
        assertRunningFive(verdict);
    }

    @Test
    void aRowFromAnotherBootIsStaleEvenIfItsPidIsAlive() {
        Scenario scenario = healthyFiveWith("author", r -> r.bootId = "old-boot");

        Verdict verdict = scenario.classify();

        assertEquals(List.of("previous_boot"), reasons(verdict.staleRegistrations()));
        assertEquals(List.of("unregistered_process", "missing_member"), codes(verdict));
    }

    @Test
    void bootIdsAreComparedTrimmedAndCaseInsensitively() {
        Scenario scenario = healthyFiveWith("author", r -> r.bootId = "  " + RowBuilder.BOOT.toUpperCase() + "\n");

        assertRunningFive(scenario.classify());
    }

    @Test
    void anUnknownObservedBootIdNeverMakesARowStale() {
        Scenario scenario = Scenario.healthyFive();
        scenario.bootId = null;

        assertRunningFive(scenario.classify());
    }

    @Test
    void stoppedRowsAreNeitherStaleNorRunning() {
        Scenario scenario = Scenario.healthyFive()
                .row(row(member("author"), 9200).with(r -> {
                    r.status = "stopped";
                    r.stoppedAt = "2026-07-28T02:30:00Z";
                }));

        Verdict verdict = scenario.classify();

        assertRunningFive(verdict);
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(6, verdict.registry().registrationCount());
    }
}
