package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fleet wrong in many ways at once: every blocked reason is listed, each with an action, in the
 * contract's priority order, the splits last, so the first reason is the one to deal with first.
 */
class BlockedReasonOrderTest {

    @Test
    void everyBlockedReasonAppearsInPriorityOrderWithAnAction() {
        Scenario scenario = healthyFiveWith("author", r -> r.cohortId = null);
        scenario.rows.set(1, row(member("reviewer"), 4101).with(r -> r.startupHead = null).build());
        scenario.rows.remove(3);
        scenario.removeProcess(4103);
        scenario.server(row(member("controller"), 5102).with(r -> r.cohortId = "other"))
                .server(row(member("controller"), 5103).with(r -> r.startupHead = "other"))
                .server(row(new RosterMember("x", "y", "z"), 5104))
                .row(row(member("author"), -1))
                .process(5105, Scenario.STARTED, Scenario.serveCommand("ghost"))
                .server(row(member("reconciler"), 5106).with(r -> r.runtimeId = "rt-unverified"))
                .row(row(member("merger"), 5107).with(r -> r.pidNamespace = "pid:[4026532500]"));
        scenario.removeProcess(5106).process(5106, null, Scenario.serveCommand("prgs-reconciler"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("malformed_registration", "unregistered_process", "process_start_unknown",
                "pid_namespace_mismatch", "cohort_unknown", "revision_unknown", "duplicate_member", "missing_member", "unexpected_member"),
                codes(verdict));
        assertTrue(verdict.blockedReasons().stream().allMatch(reason -> !reason.action().isBlank()));
        assertEquals(BlockedCode.MALFORMED_REGISTRATION, verdict.blockedReason());
    }

    @Test
    void splitsFollowEveryOtherReason() {
        Scenario scenario = Scenario.healthyFive().server(row(member("author"), 5100).with(r -> {
            r.cohortId = "other";
            r.startupHead = "other";
        }));

        assertEquals(List.of("duplicate_member", "cohort_split", "revision_split"), codes(scenario.classify()));
    }
}
