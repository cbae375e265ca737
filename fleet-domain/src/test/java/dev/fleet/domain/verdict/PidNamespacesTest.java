package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.assertGateShut;
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
 * A pid means a process only in the pid namespace it was recorded in: a row from another namespace is
 * unverified and blocks, never a live instance, never stale, and never supersedes a row of this one.
 */
class PidNamespacesTest {

    private static final String CHILD = "pid:[4026532500]";

    @Test
    void aRowFromAnotherNamespaceWhosePidIsGoneHereIsUnverifiedNotExited() {
        Scenario scenario = Scenario.healthyFive().row(row(member("author"), 7).with(r -> {
            r.runtimeId = "rt-host";
            r.pidNamespace = CHILD;
        }));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(List.of("pid_namespace_mismatch"), codes(verdict));
        assertGateShut(verdict, false);
        assertEquals(5, verdict.runningMemberCount(), "it counts nowhere");
        Instance shown = verdict.unverifiedRegistrations().get(0).instance();
        assertNull(shown.observedProcessStartedAt(), "no process here can be its process");
        assertEquals("gitea-author/prgs-author pid 7", verdict.blockedReasons().get(0).detail());
    }

    @Test
    void aRowFromAnotherNamespaceOnALivePidHereNeverCountsAsThatProcess() {
        Scenario scenario = healthyFiveWith("author", r -> r.pidNamespace = CHILD);

        Verdict verdict = scenario.classify();

        assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
        assertEquals(4, verdict.runningMemberCount());
        assertEquals(BlockedCode.PID_NAMESPACE_MISMATCH, verdict.blockedReason());
    }

    @Test
    void aRowWithoutANamespaceOrAnAnswererWithoutOneIsJudgedAsBefore() {
        Scenario unrecorded = Scenario.healthyFive();
        unrecorded.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.pidNamespace = null).build());
        assertRunningFive(unrecorded.classify());

        Scenario unknownHere = healthyFiveWith("author", r -> r.pidNamespace = CHILD);
        unknownHere.pidNamespace = null;
        assertRunningFive(unknownHere.classify());
    }

    @Test
    void onlyRowsOfTheSameNamespaceSupersedeEachOther() {
        Scenario scenario = Scenario.healthyFive().row(row(member("author"), 4100).with(r -> {
            r.runtimeId = "rt-child-newer";
            r.registeredAt = Timestamps.format(RowBuilder.REGISTERED.plusSeconds(5));
            r.pidNamespace = CHILD;
        }));

        Verdict verdict = scenario.classify();

        assertEquals(5, verdict.runningMemberCount(), "the host's pid 4100 is still its author");
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
    }

    @Test
    void theAnswerersNamespaceIsReportedButNotDigested() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.pidNamespace = null).build());
        Verdict host = scenario.classify();
        scenario.pidNamespace = CHILD;
        Verdict child = scenario.classify();

        assertEquals(host.verdictDigest(), child.verdictDigest());
        assertEquals(CHILD, child.observation().pidNamespace());
    }
}
