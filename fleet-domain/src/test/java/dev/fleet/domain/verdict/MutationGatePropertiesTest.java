package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierProperties.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When the mutation gate may open: only over one instance of each member in one cohort on one
 * revision, never beside an unregistered server or without a listing, and a stale row alone changes nothing.
 */
class MutationGatePropertiesTest {

    @Test
    void aSatisfiedGateMeansExactlyOneInstancePerMemberOneCohortOneRevision() {
        qt().forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            if (verdict.mutationGateSatisfied()) {
                assertTrue(verdict.inventoryComplete());
                assertEquals(snapshot.roster().members().size(), verdict.members().size());
                assertTrue(verdict.members().stream().allMatch(report -> report.instances().size() == 1));
                assertEquals(List.of(), verdict.unregisteredProcesses());
                assertEquals(List.of(), verdict.unexpectedMembers());
                assertEquals(Boolean.TRUE, verdict.singleCohort());
                assertEquals(Boolean.TRUE, verdict.singleRevision());
            }
            if (!verdict.inventoryComplete()) {
                assertFalse(verdict.mutationGateSatisfied());
            }
        });
    }

    @Test
    void anUnregisteredServerProcessOrAnUnavailableListingNeverLeavesTheGateOpen() {
        qt().forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
            processes.add(new ObservedProcess(99_999, Scenario.STARTED, Scenario.serveCommand("prgs-author"),
                    "intruder", true));
            assertFalse(FleetClassifier.classify(with(snapshot, snapshot.registry().rows(), processes))
                    .mutationGateSatisfied());

            Snapshot blind = new Snapshot(snapshot.roster(), snapshot.registry(),
                    ProcessObservation.unavailable(ListingReason.IO_ERROR, null, "host", null),
                    snapshot.observedAt(), snapshot.registryPath(), null);
            Verdict verdict = FleetClassifier.classify(blind);
            assertFalse(verdict.mutationGateSatisfied());
            assertEquals(0, verdict.runningMemberCount());
        });
    }

    @Test
    void aRosterWithoutRegistrationsNeverHasARunningMember() {
        qt().forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(with(snapshot, List.of(), snapshot.observation().processes()));
            assertEquals(0, verdict.runningMemberCount());
            assertTrue(verdict.members().stream().noneMatch(report -> report.state() != MemberState.MISSING));
            assertFalse(verdict.mutationGateSatisfied());
        });
    }

    @Test
    void aStaleRowAloneChangesNoBlockedReason() {
        qt().forAll(FleetGen.fleets(), integers().between(1, 1_000)).checkAssert((snapshot, offset) -> {
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            rows.add(RowBuilder.row(snapshot.roster().members().get(0), 900_000 + offset).with(r -> {
                r.runtimeId = "rt-dead-" + offset;
                r.registeredAt = Timestamps.format(Instant.parse("2026-07-20T00:00:00Z"));
            }).build());
            Verdict before = FleetClassifier.classify(snapshot);
            Verdict after = FleetClassifier.classify(with(snapshot, rows, snapshot.observation().processes()));
            assertEquals(before.blockedReasons(), after.blockedReasons());
            assertEquals(before.mutationGateSatisfied(), after.mutationGateSatisfied());
        });
    }
}
