package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One cohort and one revision: a member whose cohort or startup head is unknown leaves the inventory
 * incomplete; two known cohorts or revisions split the fleet, though the inventory is whole.
 */
class CohortAndRevisionTest {

    @Test
    void anUnknownCohortBlocksTheInventory() {
        Scenario scenario = healthyFiveWith("reviewer", r -> {
            r.cohortId = null;
            r.cohortSource = "unknown";
        });

        Verdict verdict = scenario.classify();

        assertEquals(List.of("cohort_unknown"), codes(verdict));
        assertNull(verdict.singleCohort());
        assertFalse(verdict.inventoryComplete());
        assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-reviewer/prgs-reviewer pid 4101"));
    }

    @Test
    void anUnknownRevisionBlocksTheInventory() {
        Verdict verdict = healthyFiveWith("reviewer", r -> r.startupHead = null).classify();

        assertEquals(List.of("revision_unknown"), codes(verdict));
        assertNull(verdict.singleRevision());
        assertEquals(List.of(RowBuilder.HEAD), verdict.startupHeads());
    }

    /**
     * Bytes that were not text read as U+FFFD (a cohort set under the C locale, a registry column another
     * tool wrote): {@code client-é} and {@code client-ü} then both read {@code client-\uFFFD\uFFFD}, and
     * their agreeing proves nothing. Every member's value so read still leaves the cohort unknown.
     */
    @Test
    void aCohortOrRevisionHoldingAReplacementCharacterIsUnknownThoughAllAgree() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.replaceAll(row -> RowBuilder.from(row).with(r -> {
            r.cohortId = "client-\uFFFD\uFFFD";
            r.startupHead = "abc\uFFFD";
        }).build());

        Verdict verdict = scenario.classify();

        assertEquals(List.of("cohort_unknown", "revision_unknown"), codes(verdict));
        assertNull(verdict.singleCohort());
        assertNull(verdict.singleRevision());
        assertFalse(verdict.mutationGateSatisfied());
        assertEquals(List.of(), verdict.cohortIds(), "no cohort is known");
        assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-reviewer/prgs-reviewer pid 4101 (its value "
                + "is not text)"), verdict.blockedReasons().get(0).detail());
    }

    @Test
    void twoRevisionsSplitTheFleetButLeaveTheInventoryComplete() {
        Verdict verdict = healthyFiveWith("reviewer", r -> r.startupHead = "0ldc0ffee").classify();

        assertEquals(List.of("revision_split"), codes(verdict));
        assertEquals(Boolean.FALSE, verdict.singleRevision());
        assertTrue(verdict.inventoryComplete());
        assertEquals(List.of("0ldc0ffee", RowBuilder.HEAD), verdict.startupHeads());
    }

    @Test
    void twoCohortsSplitTheFleet() {
        Verdict verdict = healthyFiveWith("reconciler", r -> r.cohortId = "env:other").classify();

        assertEquals(List.of("cohort_split"), codes(verdict));
        assertEquals(Boolean.FALSE, verdict.singleCohort());
    }
}
