package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.HostId;
import dev.fleet.domain.Lease;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rule 0 (docs/CONTRACT.md, "Many hosts"): rows of another host, judged by their lease at the registry's clock. */
class RemoteRowsTest {

    private static final String HERE = HostId.fromMachineId("0123456789abcdef0123456789abcdef");
    private static final String THERE = HostId.fromMachineId("fedcba9876543210fedcba9876543210");
    /** The registry's clock, a minute after the answerer's own. */
    private static final Instant REGISTRY_NOW = Scenario.OBSERVED_AT.plusSeconds(60);

    private static Scenario healthyHere() {
        Scenario scenario = Scenario.healthyFive();
        scenario.hostId = HERE;
        scenario.registryClock = REGISTRY_NOW;
        return scenario;
    }

    /** A reconciler on the other host, its pid unobservable here, that heartbeated {@code ago} before the registry's now. */
    private static RowBuilder remoteReconciler(Duration ago) {
        return row(member("reconciler"), 9_999).with(r -> {
            r.hostId = THERE;
            r.runtimeId = "rt-remote";
            r.lastHeartbeatAt = Timestamps.format(REGISTRY_NOW.minus(ago));
        });
    }

    @Test
    void hostIdsAreTheFirst32HexDigitsOfASaltedHashNeverTheMachineId() {
        String id = HostId.fromMachineId(" 0123456789abcdef0123456789abcdef\n");
        assertTrue(id.matches("[0-9a-f]{32}"));
        assertEquals(HERE, id);
        assertFalse(id.contains("0123456789abcdef"));
        assertEquals(HostId.fromHostname("build-7"), HostId.fromHostname("build-7"));
        assertNull(HostId.fromMachineId(" "));
        assertFalse(HostId.differ(null, HERE));
        assertFalse(HostId.differ(THERE, null));
        assertTrue(HostId.differ(THERE, HERE));
    }

    @Test
    void aLiveRemoteInstanceOfARosterMemberClosesTheGateAfterUnexpectedMembers() {
        Scenario scenario = healthyHere().row(remoteReconciler(Duration.ofSeconds(30)));
        Verdict verdict = scenario.classify();

        assertFalse(verdict.mutationGateSatisfied());
        assertTrue(verdict.inventoryComplete());
        assertEquals(BlockedCode.REMOTE_MEMBER, verdict.blockedReason());
        assertEquals(5, verdict.runningMemberCount());
        assertEquals(1, verdict.remoteInstances().size());
        assertEquals(THERE, verdict.remoteInstances().get(0).hostId());
        assertNull(verdict.remoteInstances().get(0).instance().observedProcessStartedAt());
        assertTrue(verdict.blockedReasons().get(0).detail().contains("on host " + THERE));
        assertEquals(List.of(), verdict.unregisteredProcesses());
        assertEquals(6, verdict.registry().registrationCount());
    }

    @Test
    void theLeaseIsJudgedAtTheRegistrysClockAndAnExpiredOneIsStaleAndBlocksNothing() {
        Scenario scenario = healthyHere().row(remoteReconciler(Duration.ofSeconds(91)));
        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(List.of("lease_expired"),
                verdict.staleRegistrations().stream().map(f -> f.reason().code()).toList());

        scenario.registryClock = null; // SQLite: the answerer's clock, a minute earlier, so the lease still holds
        assertEquals(BlockedCode.REMOTE_MEMBER, scenario.classify().blockedReason());

        scenario.lease = new Lease(Duration.ofSeconds(10));
        assertTrue(scenario.classify().mutationGateSatisfied());
    }

    @Test
    void remoteRowsOfAnotherBindingAreAnotherFleetListedNowhere() {
        Scenario scenario = healthyHere()
                .row(remoteReconciler(Duration.ofSeconds(5)).with(r -> r.repo = "Other-Repo"))
                .row(remoteReconciler(Duration.ofHours(5)).with(r -> {
                    r.repo = "Other-Repo";
                    r.runtimeId = "rt-remote-old";
                }));
        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(List.of(), verdict.remoteInstances());
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(7, verdict.registry().registrationCount());
    }

    @Test
    void aRemoteRowOfTheBindingButNoRosterMemberIsListedAndBlocksNothing() {
        Scenario scenario = healthyHere().row(remoteReconciler(Duration.ZERO).with(r -> r.profile = "prgs-visitor"));
        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(1, verdict.remoteInstances().size());
    }

    @Test
    void aRemoteRowOnALocalPidNeitherSupersedesNorConflictsWithTheLocalServer() {
        long localPid = Scenario.healthyFive().rows.get(0).pid();
        Scenario scenario = healthyHere().row(remoteReconciler(Duration.ZERO).with(r -> {
            r.pid = localPid;
            r.registeredAt = Timestamps.format(REGISTRY_NOW);
        }));
        Verdict verdict = scenario.classify();

        assertEquals(List.of(BlockedCode.REMOTE_MEMBER),
                verdict.blockedReasons().stream().map(BlockedReason::code).toList());
        assertEquals(5, verdict.runningMemberCount());
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(List.of(), verdict.malformedRegistrations());
    }

    @Test
    void stoppedRemoteRowsAndRowsWithoutAHostAreNotRemote() {
        Scenario stopped = healthyHere().row(remoteReconciler(Duration.ZERO).with(r -> {
            r.status = "stopped";
            r.stoppedAt = r.lastHeartbeatAt;
        }));
        assertTrue(stopped.classify().mutationGateSatisfied());

        Scenario unknownAnswerer = Scenario.healthyFive().row(remoteReconciler(Duration.ZERO));
        Verdict verdict = unknownAnswerer.classify();
        assertEquals(List.of(), verdict.remoteInstances());
        assertEquals(List.of("process_exited"),
                verdict.staleRegistrations().stream().map(f -> f.reason().code()).toList());
    }

    @Test
    void theDocumentShowsRemoteInstancesWithTheirHostAndTheAnswerersOwnHostId() {
        Map<String, Object> tree = VerdictDocument.toTree(healthyHere().row(remoteReconciler(Duration.ZERO)).classify());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> remote = (List<Map<String, Object>>) tree.get("remote_instances");
        assertEquals(THERE, remote.get(0).get("host_id"));
        assertEquals("prgs-reconciler", remote.get(0).get("profile"));
        @SuppressWarnings("unchecked")
        Map<String, Object> observation = (Map<String, Object>) tree.get("observation");
        assertEquals(HERE, observation.get("host_id"));
    }
}
