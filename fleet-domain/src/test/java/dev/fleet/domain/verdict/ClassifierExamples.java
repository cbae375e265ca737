package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the classifier's example tests share: the codes a verdict blocks on and the reasons it flags
 * rows for, as the verdict's JSON spells them (so a failure reads like the answer an operator sees),
 * the gate open over five running members or shut, and the healthy five with one registration changed.
 */
final class ClassifierExamples {

    private ClassifierExamples() {
    }

    static List<String> codes(Verdict verdict) {
        return verdict.blockedReasons().stream().map(reason -> reason.code().code()).toList();
    }

    static List<String> reasons(List<FlaggedRegistration> flagged) {
        return flagged.stream().map(entry -> entry.reason().code()).toList();
    }

    static void assertRunningFive(Verdict verdict) {
        assertTrue(verdict.inventoryComplete());
        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(5, verdict.runningMemberCount());
    }

    /** The gate shut, over an inventory that is complete or not as {@code inventoryComplete} says. */
    static void assertGateShut(Verdict verdict, boolean inventoryComplete) {
        assertEquals(inventoryComplete, verdict.inventoryComplete());
        assertFalse(verdict.mutationGateSatisfied());
    }

    /**
     * The healthy five with the registration of the member in {@code role} changed by {@code change}:
     * one row different, in its place, while its process and every other member stay as they were.
     */
    static Scenario healthyFiveWith(String role, Consumer<RowBuilder> change) {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.replaceAll(row -> row.role().equals(role) ? RowBuilder.from(row).with(change).build() : row);
        return scenario;
    }
}
