package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class FleetClassifierPropertiesTest {

    private static String json(Verdict verdict) {
        return CanonicalJson.encode(VerdictDocument.toTree(verdict));
    }

    private static Snapshot with(Snapshot snapshot, List<RegistryRow> rows, List<ObservedProcess> processes) {
        ProcessObservation observation = snapshot.observation();
        return new Snapshot(snapshot.roster(),
                snapshot.registry().readable() ? RegistryRead.of(rows) : snapshot.registry(),
                observation.available()
                        ? ProcessObservation.of(observation.bootId(), observation.hostname(), processes)
                        : observation,
                snapshot.observedAt(), snapshot.registryPath(), snapshot.answeredBy());
    }

    private static Stream<Instance> live(Verdict verdict) {
        return Stream.concat(verdict.members().stream().flatMap(report -> report.instances().stream()),
                verdict.unexpectedMembers().stream().map(FlaggedRegistration::registration));
    }

    @Test
    void theSameSnapshotGivesTheSameVerdictAndDigest() {
        qt().forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            Verdict first = FleetClassifier.classify(snapshot);
            Verdict second = FleetClassifier.classify(snapshot);
            assertEquals(first, second);
            assertEquals(json(first), json(second));
            assertTrue(first.verdictDigest().matches("sha256:[0-9a-f]{64}"));
        });
    }

    @Test
    void theOrderOfRowsAndProcessesNeverMatters() {
        qt().forAll(FleetGen.fleets(), longs().all()).checkAssert((snapshot, seed) -> {
            Random random = new Random(seed);
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
            Collections.shuffle(rows, random);
            Collections.shuffle(processes, random);
            assertEquals(json(FleetClassifier.classify(snapshot)),
                    json(FleetClassifier.classify(with(snapshot, rows, processes))));
        });
    }

    @Test
    void everyRunningRowLandsInExactlyOnePlace() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Map<String, Integer> placements = new HashMap<>();
            Stream.of(
                    live(verdict).map(Instance::runtimeId),
                    verdict.staleRegistrations().stream().map(flagged -> flagged.registration().runtimeId()),
                    verdict.unverifiedRegistrations().stream().map(flagged -> flagged.registration().runtimeId()),
                    verdict.malformedRegistrations().stream().map(malformed -> malformed.runtimeId()))
                    .flatMap(ids -> ids)
                    .forEach(id -> placements.merge(id, 1, Integer::sum));
            for (RegistryRow row : snapshot.registry().rows()) {
                if ("running".equals(row.status())) {
                    assertEquals(1, placements.getOrDefault(row.runtimeId(), 0), row.runtimeId());
                }
            }
        });
    }

    @Test
    void oneProcessIsAtMostOneLiveInstance() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            List<Long> pids = live(FleetClassifier.classify(snapshot)).map(Instance::pid).toList();
            assertEquals(pids.size(), pids.stream().distinct().count(), pids.toString());
        });
    }

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
                    ProcessObservation.unavailable(ListingReason.IO_ERROR, null, "host"),
                    snapshot.observedAt(), snapshot.registryPath(), null);
            Verdict verdict = FleetClassifier.classify(blind);
            assertFalse(verdict.mutationGateSatisfied());
            assertEquals(0, verdict.runningMemberCount());
        });
    }

    @Test
    void aRegistrationWhoseProcessStartedAfterItRegisteredIsNeverLive() {
        qt().forAll(FleetGen.observableFleets(), integers().between(1, 3_600)).checkAssert((snapshot, lateBy) -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            live(verdict).forEach(instance -> assertFalse(
                    instance.processStartedAt().truncatedTo(ChronoUnit.SECONDS).isAfter(instance.registeredAt()),
                    instance.runtimeId()));

            // Now make every observed process start lateBy seconds after the first registration it could serve.
            List<ObservedProcess> late = snapshot.observation().processes().stream()
                    .map(process -> new ObservedProcess(process.pid(), RowBuilder.REGISTERED.plusSeconds(3 + lateBy),
                            process.commandLine(), process.user(), process.matchesServer()))
                    .toList();
            Verdict recycled = FleetClassifier.classify(with(snapshot, snapshot.registry().rows(), late));
            assertEquals(0, live(recycled).count());
            assertEquals(0, recycled.runningMemberCount());
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
