package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Evidence the gate must not believe: rows that name no server, rows that contradict, blank text, huge lists. */
class UnbelievableEvidenceTest {

    private static List<String> codes(Verdict verdict) {
        return verdict.blockedReasons().stream().map(reason -> reason.code().code()).toList();
    }

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

    @Nested
    class NotAServerProcess {

        /** The probe: five rows naming five unrelated sleeps, started before the rows registered. */
        @Test
        void fiveSleepsAreNoFleet() {
            Scenario scenario = Scenario.empty();
            long pid = 5100;
            for (RosterMember member : scenario.roster.members()) {
                scenario.row(row(member, pid)).process(pid, Scenario.STARTED, "sleep 600");
                pid++;
            }

            Verdict verdict = scenario.classify();

            assertFalse(verdict.mutationGateSatisfied());
            assertFalse(verdict.inventoryComplete());
            assertEquals(0, verdict.runningMemberCount());
            assertEquals(BlockedCode.REGISTRATION_UNCONFIRMED, verdict.blockedReason());
            assertEquals(List.of("registration_unconfirmed", "missing_member"), codes(verdict));
            assertEquals(5, verdict.unverifiedRegistrations().size());
            assertTrue(verdict.unverifiedRegistrations().stream()
                    .allMatch(flagged -> flagged.reason() == UnverifiedReason.NOT_A_SERVER_PROCESS));
        }

        @ParameterizedTest
        @ValueSource(longs = {1, 2})
        void initAndKthreaddAreNoMembers(long pid) {
            Scenario scenario = Scenario.healthyFive();
            scenario.row(row(member("author"), pid).with(r -> r.runtimeId = "rt-kernel"))
                    .process(pid, Instant.parse("2026-07-01T00:00:00Z"), pid == 1 ? "/sbin/init splash" : "");

            Verdict verdict = scenario.classify();

            assertEquals(5, verdict.runningMemberCount());
            assertEquals(List.of("registration_unconfirmed"), codes(verdict));
            assertEquals("rt-kernel", verdict.unverifiedRegistrations().get(0).instance().runtimeId());
            assertEquals("not_a_server_process", verdict.unverifiedRegistrations().get(0).reason().code());
        }

        /** The contract's rule order: 4c (not a server) is checked before 5 (started after registering). */
        @Test
        void aRecycledPidNowRunningSomethingElseIsUnconfirmedNotStale() {
            Scenario scenario = Scenario.healthyFive();
            scenario.removeProcess(4100).process(4100, RowBuilder.REGISTERED.plusSeconds(5), "sleep 600");

            Verdict verdict = scenario.classify();

            assertEquals(List.of(), verdict.staleRegistrations());
            assertEquals("not_a_server_process", verdict.unverifiedRegistrations().get(0).reason().code());
            assertEquals(List.of("registration_unconfirmed", "missing_member"), codes(verdict));
        }
    }

    @Nested
    class ConflictingClaims {

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

    @Nested
    class UnicodeSpaces {

        @ParameterizedTest
        @ValueSource(strings = {"\u00a0", "\u2003", "\u00a0\u2003 \t", "\u3000", "\u202f"})
        void aCohortOfSpacesIsUnknown(String spaces) {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100).with(r -> r.cohortId = spaces).build());

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
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100).with(r -> {
                r.pidNamespace = spaces;
                r.bootId = spaces;
            }).build());

            assertTrue(scenario.classify().mutationGateSatisfied());
        }

        @Test
        void aRecordedPidNamespaceIsComparedWithoutItsSpaces() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.pidNamespace = "\u00a0" + RowBuilder.PID_NAMESPACE + "\u2003").build());

            assertTrue(scenario.classify().mutationGateSatisfied());
        }
    }

    @Nested
    class ListCaps {

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
    }
}
