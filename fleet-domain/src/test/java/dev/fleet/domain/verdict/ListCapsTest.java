package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Scenario;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Evidence the gate must not believe should not cost an unbounded answer either: each list shows a
 * hundred entries in the contract's order and counts the rest, and the counts are digested.
 */
class ListCapsTest {

    private static final int DEAD_ROWS = 100_000;

    private Scenario deadPids() {
        Scenario scenario = Scenario.healthyFive();
        for (int i = 0; i < DEAD_ROWS; i++) {
            RosterMember member = scenario.roster.members().get(i % 5);
            scenario.row(row(member, 1_000_000 + i).with(r -> r.lastHeartbeatAt = "2026-07-28T02:00:01Z"));
        }
        return scenario;
    }

    /** The probe: 100k running rows on dead pids made a 40-95 MB answer. */
    @Test
    void aHundredThousandDeadRowsGiveABoundedAnswerThatSaysWhatItLeftOut() {
        Scenario scenario = deadPids();

        Verdict verdict = FleetClassifier.classify(scenario.snapshot());
        String json = VerdictDocument.canonicalJson(verdict);

        assertTrue(verdict.mutationGateSatisfied(), "stale rows block nothing");
        assertEquals(Map.of("stale_registrations", DEAD_ROWS - VerdictLists.MAX_ENTRIES), verdict.omittedEntries());
        assertTrue(json.length() < 200_000, "JSON of " + json.length() + " chars");
        assertTrue(json.contains("\"omitted_entries\":{\"stale_registrations\":99900}"), json);
        @SuppressWarnings("unchecked")
        List<Object> stale = (List<Object>) VerdictDocument.toTree(verdict).get("stale_registrations");
        assertEquals(VerdictLists.MAX_ENTRIES, stale.size());
        // The first hundred in the contract's order: namespace, profile, pid.
        assertEquals(verdict.staleRegistrations().get(0).instance().pid(), 1_000_000L);

        Collections.shuffle(scenario.rows, new Random(18));
        Verdict shuffled = FleetClassifier.classify(scenario.snapshot());
        assertEquals(json, VerdictDocument.canonicalJson(shuffled));
        assertEquals(verdict.verdictDigest(), shuffled.verdictDigest());
    }

    @Test
    void blockedDetailsNameAHundredEntriesAndCountTheRest() {
        Scenario scenario = Scenario.healthyFive();
        for (int i = 0; i < 250; i++) {
            scenario.row(row(member("author"), 9_000 + i).with(r -> r.status = "exploded"));
        }

        Verdict verdict = scenario.classify();

        String detail = verdict.blockedReasons().get(0).detail();
        assertTrue(detail.endsWith(" and 150 more"), detail);
        assertEquals(Map.of("malformed_registrations", 150), verdict.omittedEntries());
    }

    @Test
    void theOmittedCountsAreDigested() {
        Scenario few = Scenario.healthyFive();
        Scenario more = Scenario.healthyFive();
        for (int i = 0; i < 101; i++) {
            few.row(row(member("author"), 20_000 + i));
            more.row(row(member("author"), 20_000 + i));
        }
        more.row(row(member("author"), 30_000)); // sorts after every shown entry: only the count differs

        Verdict a = few.classify();
        Verdict b = more.classify();

        assertEquals(Map.of("stale_registrations", 1), a.omittedEntries());
        assertEquals(Map.of("stale_registrations", 2), b.omittedEntries());
        assertNotEquals(a.verdictDigest(), b.verdictDigest());
    }

    @Test
    void aDuplicateMembersInstancesAreCappedInBothPlaces() {
        Scenario scenario = Scenario.healthyFive();
        for (int i = 0; i < 150; i++) {
            scenario.server(row(member("author"), 30_000 + i));
        }

        Verdict verdict = scenario.classify();

        assertEquals(155, verdict.runningMemberCount());
        assertEquals(Map.of("members[0].instances", 51, "duplicate_members[0].instances", 51),
                verdict.omittedEntries());
    }

    /** A member that starts a thousand server-looking workers shows a hundred of them and counts the rest. */
    @Test
    void anInstancesServedPidsAreCappedAndCountedByTheirPlace() {
        Scenario scenario = WrappedFleet.five();
        for (int i = 0; i < 1_000; i++) {
            scenario.process(20_000 + i, 5100L, WrappedFleet.SERVER_STARTED.plusMillis(1),
                    WrappedFleet.serverCommand("prgs-author") + " --worker", WrappedFleet.USER);
        }

        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(1_001, WrappedFleet.instanceOf(verdict, "author").servedPids().size(), "judged whole");
        assertEquals(Map.of("members[0].instances[0].served_pids", 901), verdict.omittedEntries());
        @SuppressWarnings("unchecked")
        Map<String, Object> author = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) ((List<Object>)
                VerdictDocument.toTree(verdict).get("members")).get(0)).get("instances")).get(0);
        assertEquals(VerdictLists.MAX_ENTRIES, ((List<?>) author.get("served_pids")).size());
    }
}
