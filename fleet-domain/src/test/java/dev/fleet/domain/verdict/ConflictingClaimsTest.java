package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Scenario;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Evidence the gate must not believe: rows that contradict each other (one runtime id twice with
 * different content, one live pid claimed as two members) are malformed, whatever order they come in.
 */
class ConflictingClaimsTest {

    private static List<String> malformed(Verdict verdict) {
        return verdict.malformedRegistrations().stream()
                .map(row -> row.runtimeId() + " " + row.reason().code()).toList();
    }

    /** Classified with the rows in reverse order too: both must give the same bytes. */
    private static Verdict inBothOrders(Scenario scenario) {
        Verdict forward = scenario.classify();
        Collections.reverse(scenario.rows);
        Verdict backward = scenario.classify();
        assertEquals(VerdictDocument.canonicalJson(forward), VerdictDocument.canonicalJson(backward));
        return forward;
    }

    /** The probe: one runtime_id twice, different cohorts; one order opened the gate, the other split it. */
    @Test
    void twinsThatDifferAreBothMalformedWhateverTheOrder() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.add(row(member("author"), 4100).with(r -> r.cohortId = "ppid:other").build());

        Verdict verdict = inBothOrders(scenario);

        assertEquals(List.of("rt-prgs-author-4100 conflicting_claims", "rt-prgs-author-4100 conflicting_claims"),
                malformed(verdict));
        assertEquals(4, verdict.runningMemberCount());
        assertEquals(List.of(), verdict.staleRegistrations());
        // The author's process now has no interpretable registration: it is unregistered, not anyone's.
        assertEquals(List.of("malformed_registration", "unregistered_process", "missing_member"), codes(verdict));
    }

    @Test
    void identicalTwinsAreOneClaimNotAConflict() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.add(row(member("author"), 4100).build());

        Verdict verdict = inBothOrders(scenario);

        assertEquals(List.of(), verdict.malformedRegistrations());
        assertEquals(5, verdict.runningMemberCount());
    }

    /** The probe: two rows named one live pid as two members; one went superseded and the gate opened. */
    @Test
    void oneLiveProcessClaimedAsTwoMembersIsMalformedNotSuperseded() {
        Scenario scenario = Scenario.healthyFive();
        scenario.removeProcess(4101); // the reviewer's own process is gone; its row now names the author's
        scenario.rows.set(1, row(member("reviewer"), 4100)
                .with(r -> r.registeredAt = "2026-07-28T02:00:01Z").build());

        Verdict verdict = inBothOrders(scenario);

        assertEquals(List.of("rt-prgs-author-4100 conflicting_claims", "rt-prgs-reviewer-4100 conflicting_claims"),
                malformed(verdict));
        assertEquals(List.of(), verdict.staleRegistrations());
        assertFalse(verdict.mutationGateSatisfied());
        assertEquals(3, verdict.runningMemberCount());
    }

    @Test
    void aNewerRowOfTheSameMemberOnOnePidStillSupersedes() {
        Scenario scenario = Scenario.healthyFive();
        scenario.row(row(member("author"), 4100).with(r -> {
            r.runtimeId = "rt-older";
            r.registeredAt = "2026-07-28T01:59:59Z";
        }));

        Verdict verdict = inBothOrders(scenario);

        assertEquals(List.of(), verdict.malformedRegistrations());
        assertEquals("superseded", verdict.staleRegistrations().get(0).reason().code());
        assertTrue(verdict.mutationGateSatisfied());
    }

    @Test
    void rowsOnOnePidThatIsNotAliveConflictWithNothing() {
        Scenario scenario = Scenario.healthyFive();
        scenario.row(row(member("author"), 7777)).row(row(member("reviewer"), 7777));

        Verdict verdict = inBothOrders(scenario);

        assertEquals(List.of(), verdict.malformedRegistrations());
        assertTrue(verdict.mutationGateSatisfied());
    }
}
