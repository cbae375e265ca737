package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.assertGateShut;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.healthyFiveWith;
import static dev.fleet.domain.verdict.ClassifierExamples.reasons;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Binding;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Live registrations against the roster: a member missing, a member twice, a registration the roster does not name. */
class RosterMembershipTest {

    @Test
    void aMemberWithNoRegistrationIsMissing() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.remove(3);
        scenario.removeProcess(4103);

        Verdict verdict = scenario.classify();

        assertGateShut(verdict, true);
        assertEquals("missing_member", verdict.blockedReason().code());
        assertEquals(List.of(member("merger")), verdict.missingMembers());
        assertEquals(4, verdict.runningMemberCount());
        assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-merger"));
    }

    @Test
    void configurationAloneNeverCounts() {
        Verdict verdict = Scenario.empty().classify();

        assertEquals(0, verdict.runningMemberCount());
        assertEquals(5, verdict.missingMembers().size());
        assertEquals(List.of("missing_member"), codes(verdict));
        assertNull(verdict.singleCohort());
        assertNull(verdict.singleRevision());
    }

    @Test
    void aSecondInstanceOfAMemberIsADuplicateAndCountsAsASixthProcess() {
        Scenario scenario = Scenario.healthyFive().server(row(member("author"), 5100));

        Verdict verdict = scenario.classify();

        assertGateShut(verdict, true);
        assertEquals(List.of("duplicate_member"), codes(verdict));
        assertEquals(6, verdict.runningMemberCount());
        assertEquals(5, verdict.expectedMemberCount());
        MemberReport duplicate = verdict.duplicateMembers().get(0);
        assertEquals(member("author"), duplicate.member());
        assertEquals(List.of(4100L, 5100L), duplicate.instances().stream().map(Instance::pid).toList());
        assertEquals(MemberState.DUPLICATE, verdict.members().get(0).state());
    }

    @Test
    void twoClientsEachLaunchingFiveServersGiveFiveDuplicatesAndACohortSplit() {
        // The regression that started it all: ten processes, all truthfully on one revision.
        Scenario scenario = Scenario.healthyFive();
        long pid = 6100;
        for (RosterMember rosterMember : scenario.roster.members()) {
            scenario.server(row(rosterMember, pid++).with(r -> r.cohortId = "ppid:51234"));
        }

        Verdict verdict = scenario.classify();

        assertEquals(List.of("duplicate_member", "cohort_split"), codes(verdict));
        assertEquals(5, verdict.duplicateMembers().size());
        assertEquals(10, verdict.runningMemberCount());
        assertEquals(Boolean.FALSE, verdict.singleCohort());
        assertEquals(List.of("ppid:40990", "ppid:51234"), verdict.cohortIds());
        assertEquals(Boolean.TRUE, verdict.singleRevision());
        assertGateShut(verdict, true);
    }

    @Test
    void aLiveRegistrationBoundToAnotherRepositoryIsUnexpected() {
        Scenario scenario = Scenario.healthyFive()
                .server(row(member("author"), 5200).with(r -> r.repo = "Other-Repo"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("unexpected_member"), codes(verdict));
        assertEquals(List.of("binding_mismatch"), reasons(verdict.unexpectedMembers()));
        assertEquals(5, verdict.runningMemberCount());
    }

    @Test
    void aLiveRegistrationOutsideTheRosterIsUnexpected() {
        Scenario scenario = Scenario.healthyFive()
                .server(row(new RosterMember("gitea-janitor", "prgs-janitor", "janitor"), 5300));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("unexpected_member"), codes(verdict));
        assertEquals(List.of("not_in_roster"), reasons(verdict.unexpectedMembers()));
        assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-janitor/prgs-janitor pid 5300"));
    }

    @Test
    void aRegistrationWhoseRoleDisagreesWithTheRosterIsNotAMember() {
        Scenario scenario = healthyFiveWith("author", r -> r.role = "reviewer");

        Verdict verdict = scenario.classify();

        assertEquals(List.of("missing_member", "unexpected_member"), codes(verdict));
        assertEquals(List.of("not_in_roster"), reasons(verdict.unexpectedMembers()));
    }

    @Test
    void unexpectedRegistrationsDoNotTakePartInTheCohort() {
        Scenario scenario = Scenario.healthyFive()
                .server(row(member("author"), 5400).with(r -> {
                    r.repo = "Other-Repo";
                    r.cohortId = null;
                }));

        Verdict verdict = scenario.classify();

        assertEquals(Boolean.TRUE, verdict.singleCohort());
        assertEquals(List.of("unexpected_member"), codes(verdict));
    }

    @Test
    void aCustomRosterDefinesTheFleet() {
        Scenario scenario = Scenario.empty();
        scenario.roster = new Roster(new Binding("origin", "acme", "widgets"),
                List.of(new RosterMember("w-author", "w-author", "author")), List.of("widget-server"));
        scenario.server(row(new RosterMember("w-author", "w-author", "author"), 700).with(r -> {
            r.remote = "origin";
            r.org = "acme";
            r.repo = "widgets";
        }));
        scenario.processes.clear();
        scenario.process(700, Scenario.STARTED, "python -m widget-server --profile w-author");

        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(1, verdict.runningMemberCount());
        assertEquals(1, verdict.processListing().serverProcessCount());
    }
}
