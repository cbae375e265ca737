package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.registered;
import static dev.fleet.domain.Scenario.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The orphan rule (docs/CONTRACT.md, "Orphans"), case by case. */
class OrphanRuleTest {

    private static final long CLIENT = 900;
    private static final Instant CLIENT_STARTED = RowBuilder.REGISTERED.minusSeconds(120);

    /** The five default members, all started by one client (pid {@value #CLIENT}), which the observation shows or not. */
    private static Scenario fiveStartedByOneClient() {
        Scenario scenario = Scenario.empty();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.server(registered(member, pid++).parent(CLIENT, CLIENT_STARTED));
        }
        return scenario;
    }

    /** The five default members, observed, with the author's row as {@code author} makes it. */
    private static Scenario fiveWithAnAuthor(UnaryOperator<RowBuilder> author) {
        Scenario scenario = Scenario.empty();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            RowBuilder row = registered(member, pid++);
            scenario.server(member.role().equals("author") ? author.apply(row) : row);
        }
        return scenario;
    }

    private static List<String> codes(Verdict verdict) {
        return verdict.blockedReasons().stream().map(reason -> reason.code().code()).toList();
    }

    @Test
    void aLiveClientOrphansNothing() {
        Verdict verdict = fiveStartedByOneClient().process(CLIENT, CLIENT_STARTED.plusMillis(600), "claude").classify();
        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(List.of(), verdict.orphanedInstances());
    }

    @Test
    void aGoneClientOrphansEveryServerItStartedAndClosesTheGateOnly() {
        Verdict verdict = fiveStartedByOneClient().classify();

        assertEquals(List.of("orphaned_member"), codes(verdict));
        assertTrue(verdict.inventoryComplete(), "the inventory is known: only the gate closes");
        assertFalse(verdict.mutationGateSatisfied());
        assertEquals(5, verdict.runningMemberCount(), "an orphan stays an instance");
        assertEquals(5, verdict.orphanedInstances().size());
        OrphanedInstance first = verdict.orphanedInstances().get(0);
        assertEquals("gitea-author", first.instance().namespace());
        assertEquals(CLIENT, first.parentPid());
        assertEquals(CLIENT_STARTED, first.parentStartedAt());
        BlockedReason reason = verdict.blockedReasons().get(0);
        assertTrue(reason.detail().startsWith("gitea-author/prgs-author pid 4100 (client pid 900 gone)"), reason.detail());
        assertTrue(reason.action().startsWith("Stop pids 4100, "), reason.action());
        assertTrue(reason.action().contains("their clients are gone"), reason.action());
    }

    @Test
    void theActionNamesTheOnePidToStopOfADuplicate() {
        // The operator's question: of two authors, which is the dead client's?
        Scenario scenario = Scenario.healthyFive()
                .server(registered(member("author"), 5100).parent(CLIENT, CLIENT_STARTED));
        Verdict verdict = scenario.classify();

        assertEquals(List.of("orphaned_member", "duplicate_member"), codes(verdict));
        assertEquals(6, verdict.runningMemberCount());
        assertEquals(1, verdict.duplicateMembers().size());
        assertEquals(2, verdict.duplicateMembers().get(0).instances().size(), "the orphan is still a duplicate");
        assertEquals(5100, verdict.orphanedInstances().get(0).instance().pid());
        assertEquals("Stop pid 5100 yourself: its client is gone (the MCP client that started it, pid 900, no longer "
                + "runs), so no client will use it again; this tool never terminates anything.",
                verdict.blockedReasons().get(0).action());
    }

    @Test
    void aRecycledClientPidDoesNotHideTheOrphan() {
        Verdict verdict = fiveStartedByOneClient()
                .process(CLIENT, CLIENT_STARTED.plusSeconds(30), "bash -c unrelated").classify();
        assertEquals(5, verdict.orphanedInstances().size());
        assertEquals("orphaned_member", verdict.blockedReason().code());
    }

    @Test
    void aClientStartWithinTheToleranceIsTheSameClient() {
        assertEquals(List.of(), fiveStartedByOneClient()
                .process(CLIENT, CLIENT_STARTED.minusMillis(1_000), "claude").classify().orphanedInstances());
        assertEquals(5, fiveStartedByOneClient()
                .process(CLIENT, CLIENT_STARTED.minusMillis(1_001), "claude").classify().orphanedInstances().size());
    }

    @Test
    void aClientWhoseStartCannotBeReadIsNotProvedGone() {
        assertEquals(List.of(), fiveStartedByOneClient().process(CLIENT, null, "claude").classify().orphanedInstances());
    }

    @Test
    void aRowThatRecordedNoParentStartIsOrphanedOnlyWhenTheParentPidIsGone() {
        Scenario scenario = Scenario.empty();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.server(registered(member, pid++).parent(CLIENT, null));
        }
        assertEquals(5, scenario.classify().orphanedInstances().size());
        OrphanedInstance orphan = scenario.classify().orphanedInstances().get(0);
        assertNull(orphan.parentStartedAt());
        assertEquals(List.of(), scenario.process(CLIENT, CLIENT_STARTED.plusSeconds(99), "x").classify()
                .orphanedInstances());
    }

    @Test
    void rowsWithoutAParentAndHttpServersAreNeverOrphaned() {
        Scenario scenario = Scenario.healthyFive()
                .server(registered(member("author"), 5100).parent(CLIENT, CLIENT_STARTED)
                        .with(r -> r.transport = "streamable_http"));
        Verdict verdict = scenario.classify();
        assertEquals(List.of(), verdict.orphanedInstances());
        assertEquals(List.of("duplicate_member"), codes(verdict));
    }

    @Test
    void onlyLiveInstancesOfRosterMembersAreOrphaned() {
        Scenario scenario = Scenario.healthyFive()
                .row(registered(member("author"), 5100).parent(CLIENT, CLIENT_STARTED)) // process exited: stale
                .server(registered(new RosterMember("gitea-stray", "prgs-stray", "stray"), 5200)
                        .parent(CLIENT, CLIENT_STARTED)); // unexpected: already blocks on its own
        Verdict verdict = scenario.classify();
        assertEquals(List.of(), verdict.orphanedInstances());
        assertEquals(List.of("unexpected_member"), codes(verdict));
    }

    @Test
    void orphanedMemberComesAfterRevisionUnknownAndBeforeDuplicateMember() {
        Scenario scenario = Scenario.empty();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.server(registered(member, pid++).parent(CLIENT, CLIENT_STARTED).with(r -> r.startupHead = null));
        }
        scenario.server(registered(member("author"), 5100));
        assertEquals(List.of("revision_unknown", "orphaned_member", "duplicate_member"), codes(scenario.classify()));
    }

    /**
     * Another tool's row whose transport is NULL or misspelt may be a stdio server as well as an HTTP one:
     * only a known HTTP server is exempt, or such a row would open the gate with its client gone.
     */
    @Test
    void aServerWhoseTransportIsUnknownIsOrphanedWhenItsClientIsGone() {
        for (String transport : new String[] {null, "STDIO", "pipe"}) {
            Scenario scenario = fiveWithAnAuthor(row -> row.parent(CLIENT, CLIENT_STARTED).with(r -> r.transport = transport));
            assertEquals(List.of("orphaned_member"), codes(scenario.classify()), String.valueOf(transport));
        }
    }

    /**
     * A parent pid that names no process (another tool wrote {@code 'x'} or {@code 12.0} where a pid goes,
     * which the registry adapters read as -1, or a number no pid can be) is a client that is not alive,
     * never an unknown one: unknown would exempt the row from the rule and open the gate. Its unreadable
     * start is unknown, and the row is not malformed.
     */
    @Test
    void aParentPidThatNamesNoProcessIsAGoneClientNotAnUnknownOne() {
        for (long parentPid : new long[] {-1, 0, RegistryRow.MAX_PID + 1}) {
            InterpretedRow row = registered(member("author"), 4100)
                    .with(r -> {
                        r.parentPid = parentPid;
                        r.parentStartedAt = "yesterday";
                    }).build().interpret();
            Registration registration = (Registration) row;
            assertEquals(parentPid, registration.parent().pid());
            assertNull(registration.parent().startedAt());
            Scenario scenario = fiveWithAnAuthor(each -> each.with(r -> r.parentPid = parentPid));
            assertEquals(List.of("orphaned_member"), codes(scenario.classify()), String.valueOf(parentPid));
        }
    }

    @Test
    void parentColumnsRoundTrip() {
        Registration kept = registered(member("author"), 4100).parent(CLIENT, CLIENT_STARTED).registration();
        assertEquals(kept, ((Registration) kept.toRow().interpret()), "parent columns round-trip");
    }

    @Test
    void theOrphanIsListedWithItsParentInTheDocument() {
        Map<String, Object> tree = VerdictDocument.toTree(Scenario.healthyFive()
                .server(registered(member("author"), 5100).parent(CLIENT, CLIENT_STARTED)).classify());
        @SuppressWarnings("unchecked")
        Map<String, Object> orphan = ((List<Map<String, Object>>) tree.get("orphaned_instances")).get(0);
        assertEquals(5100L, ((Number) orphan.get("pid")).longValue());
        assertEquals(900L, ((Number) orphan.get("parent_pid")).longValue());
        assertEquals("2026-07-28T01:58:00.250Z", orphan.get("parent_started_at"));
        assertEquals("recorded_process_started_at", orphan.keySet().stream().toList().get(13));
    }
}
