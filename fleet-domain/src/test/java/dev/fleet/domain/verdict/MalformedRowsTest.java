package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A row that cannot be read as a registration is malformed: it never runs and it blocks, while the
 * other rows are classified as ever.
 */
class MalformedRowsTest {

    @Test
    void aRowWithANonPositivePidIsMalformedAndNeverRunning() {
        Scenario scenario = Scenario.healthyFive().row(row(member("author"), 0).with(r -> r.runtimeId = "rt-zero"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("malformed_registration"), codes(verdict));
        assertEquals("rt-zero", verdict.malformedRegistrations().get(0).runtimeId());
        assertEquals("pid_invalid", verdict.malformedRegistrations().get(0).reason().code());
        assertEquals(5, verdict.runningMemberCount());
    }

    @Test
    void anUnparseableTimestampIsMalformedWhileOtherRowsStillClassify() {
        Scenario scenario = healthyFiveWith("author", r -> r.registeredAt = "not-a-time");

        Verdict verdict = scenario.classify();

        assertEquals("registered_at_unparseable", verdict.malformedRegistrations().get(0).reason().code());
        assertEquals(4, verdict.runningMemberCount());
        // Its process is still a server with no interpretable registration.
        assertEquals(List.of("malformed_registration", "unregistered_process", "missing_member"), codes(verdict));
    }

    @Test
    void aBlankNamespaceIsMalformed() {
        Scenario scenario = Scenario.healthyFive().row(row(member("author"), 9300).with(r -> r.namespace = "   "));

        Verdict verdict = scenario.classify();

        assertEquals("namespace_blank", verdict.malformedRegistrations().get(0).reason().code());
        assertFalse(verdict.inventoryComplete());
    }
}
