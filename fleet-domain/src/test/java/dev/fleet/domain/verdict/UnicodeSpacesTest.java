package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Evidence the gate must not believe: text of Unicode spaces (no-break, em, ideographic) is blank as
 * ASCII spaces are, so it is never a cohort, a name or a namespace, and where it pads one it is trimmed off.
 */
class UnicodeSpacesTest {

    @ParameterizedTest
    @ValueSource(strings = {"\u00a0", "\u2003", "\u00a0\u2003 \t", "\u3000", "\u202f"})
    void aCohortOfSpacesIsUnknown(String spaces) {
        Scenario scenario = healthyFiveWith("author", r -> r.cohortId = spaces);

        Verdict verdict = scenario.classify();

        assertEquals(null, verdict.singleCohort());
        assertEquals(List.of("cohort_unknown"), codes(verdict));
        assertEquals(List.of(RowBuilder.COHORT), verdict.cohortIds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u00a0", "\u2003"})
    void aNamespaceOrRuntimeIdOfSpacesIsMalformed(String spaces) {
        Scenario scenario = Scenario.healthyFive()
                .row(row(member("author"), 9300).with(r -> r.namespace = spaces))
                .row(row(member("author"), 9301).with(r -> r.runtimeId = spaces + spaces));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("namespace_blank", "runtime_id_blank"), verdict.malformedRegistrations().stream()
                .map(MalformedRegistration::reason).map(reason -> reason.code()).sorted().toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u00a0", "\u2003"})
    void aPidNamespaceOrBootIdOfSpacesIsUnknown(String spaces) {
        Scenario scenario = healthyFiveWith("author", r -> {
            r.pidNamespace = spaces;
            r.bootId = spaces;
        });

        assertTrue(scenario.classify().mutationGateSatisfied());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\n", " ", "\u00a0", "\r\n", "\u3000\t"})
    void aCohortOrRevisionPaddedWithSpacesAgreesWithTheUnpaddedOne(String spaces) {
        // Another tool writing "c1\n" beside fleet's "c1" records one cohort, not two.
        Scenario scenario = healthyFiveWith("author", r -> {
            r.cohortId = spaces + RowBuilder.COHORT + spaces;
            r.startupHead = RowBuilder.HEAD + spaces;
        });

        Verdict verdict = scenario.classify();

        assertEquals(List.of(), codes(verdict));
        assertEquals(true, verdict.singleCohort());
        assertEquals(List.of(RowBuilder.COHORT), verdict.cohortIds());
        assertEquals(true, verdict.singleRevision());
        assertEquals(List.of(RowBuilder.HEAD), verdict.startupHeads());
        assertTrue(verdict.mutationGateSatisfied());
    }

    @Test
    void aRecordedPidNamespaceIsComparedWithoutItsSpaces() {
        Scenario scenario = healthyFiveWith("author", r -> r.pidNamespace = "\u00a0" + RowBuilder.PID_NAMESPACE + "\u2003");

        assertTrue(scenario.classify().mutationGateSatisfied());
    }
}
