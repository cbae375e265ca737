package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierExamples.assertRunningFive;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fleet that opens the gate: five members, each registered once and observed, and what its verdict reports. */
class HealthyFleetTest {

    @Test
    void theDefaultFiveRegisteredAndObservedSatisfyTheGate() {
        Verdict verdict = Scenario.healthyFive().classify();

        assertRunningFive(verdict);
        assertNull(verdict.blockedReason());
        assertEquals(List.of(), verdict.blockedReasons());
        assertEquals(5, verdict.expectedMemberCount());
        assertTrue(verdict.members().stream().allMatch(report -> report.state() == MemberState.RUNNING));
        assertEquals(Boolean.TRUE, verdict.singleCohort());
        assertEquals(List.of(RowBuilder.COHORT), verdict.cohortIds());
        assertEquals(Boolean.TRUE, verdict.singleRevision());
        assertEquals(List.of(RowBuilder.HEAD), verdict.startupHeads());
        assertEquals(5, verdict.registry().registrationCount());
        assertEquals(5, verdict.processListing().serverProcessCount());
        assertTrue(verdict.verdictDigest().matches("sha256:[0-9a-f]{64}"));
    }

    @Test
    void membersAreSortedByNamespaceAndInstancesCarryObservedAndRecordedStarts() {
        Scenario scenario = healthyFiveWith("author", r -> r.processStartedAt = Timestamps.format(Scenario.STARTED));
        Verdict verdict = scenario.classify();

        assertEquals(List.of("gitea-author", "gitea-controller", "gitea-merger", "gitea-reconciler",
                "gitea-reviewer"), verdict.members().stream().map(report -> report.member().namespace()).toList());
        Instance author = verdict.members().get(0).instances().get(0);
        assertEquals(Scenario.STARTED, author.observedProcessStartedAt());
        assertEquals(Scenario.STARTED, author.recordedProcessStartedAt());
        assertNull(verdict.members().get(1).instances().get(0).recordedProcessStartedAt());
    }

    @Test
    void aWholeSecondRegisteredAtEqualToTheStartsSecondIsLive() {
        Instant start = Instant.parse("2026-07-28T02:00:00.900Z");
        Scenario scenario = healthyFiveWith("author", r -> r.registeredAt = "2026-07-28T02:00:00Z");
        scenario.removeProcess(4100).process(4100, start, Scenario.serveCommand("prgs-author"));

        Verdict verdict = scenario.classify();

        assertRunningFive(verdict);
        assertEquals(List.of(), verdict.staleRegistrations());
    }

    @Test
    void anOffsetTimestampFromAnotherWriterIsAcceptedLikeZulu() {
        Scenario scenario = healthyFiveWith("controller", r -> r.registeredAt = "2026-07-28T04:00:00+02:00");
        assertRunningFive(scenario.classify());
    }

    @Test
    void theAnsweringServerIsReportedButNotDigested() {
        Scenario scenario = Scenario.healthyFive();
        Verdict anonymous = scenario.classify();
        scenario.answeredBy = new dev.fleet.domain.AnsweredBy(4102, "gitea-controller", "prgs-controller");
        Verdict answered = scenario.classify();

        assertEquals(anonymous.verdictDigest(), answered.verdictDigest());
        assertEquals(4102, answered.observation().answeredBy().pid());
        assertEquals("/state/control_plane.sqlite3", answered.observation().registryPath());
    }
}
