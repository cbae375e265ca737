package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The orphan rule (docs/CONTRACT.md, "Orphans") over generated fleets whose clients live, are gone,
 * are gone with their pid recycled, or cannot be dated ({@link FleetGen}).
 */
class OrphanPropertiesTest {

    /** Every recorded parent pid with the start its rows recorded (null when none did). */
    private static Map<Long, Instant> recordedParents(Snapshot snapshot) {
        Map<Long, Instant> parents = new LinkedHashMap<>();
        for (RegistryRow row : snapshot.registry().rows()) {
            if (row.parentPid() != null) {
                Instant start = Timestamps.parse(row.parentStartedAt()).orElse(null);
                parents.merge(row.parentPid(), start == null ? FleetGen.CLIENT_STARTED : start, (a, b) -> a);
            }
        }
        return parents;
    }

    /** {@code snapshot} with its processes replaced by {@code processes}. */
    private static Snapshot observing(Snapshot snapshot, List<ObservedProcess> processes) {
        ProcessObservation seen = snapshot.observation();
        return new Snapshot(snapshot.roster(), snapshot.registry(),
                ProcessObservation.of(seen.bootId(), seen.hostname(), seen.pidNamespace(), processes),
                snapshot.observedAt(), snapshot.registryPath(), snapshot.answeredBy());
    }

    /** The same fleet with every recorded client alive, as its rows recorded it. */
    private static Snapshot everyClientAlive(Snapshot snapshot) {
        Map<Long, Instant> parents = recordedParents(snapshot);
        List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
        processes.removeIf(process -> parents.containsKey(process.pid()));
        parents.forEach((pid, start) -> processes.add(new ObservedProcess(pid, start, "claude", "fleet", false)));
        return observing(snapshot, processes);
    }

    private static Set<BlockedCode> codes(Verdict verdict) {
        return verdict.blockedReasons().stream().map(BlockedReason::code).collect(Collectors.toSet());
    }

    @Test
    void anOrphanNeverOpensAGateThatWouldOtherwiseBeClosed() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict orphaned = FleetClassifier.classify(snapshot);
            Verdict alive = FleetClassifier.classify(everyClientAlive(snapshot));
            assertEquals(List.of(), alive.orphanedInstances());
            // Orphans add their own code and take nothing away: every other reason stays, and so do
            // the instances (duplicates, cohorts and revisions still count them).
            Set<BlockedCode> expected = new HashSet<>(codes(alive));
            if (!orphaned.orphanedInstances().isEmpty()) {
                expected.add(BlockedCode.ORPHANED_MEMBER);
            }
            assertEquals(expected, codes(orphaned));
            assertEquals(alive.members(), orphaned.members());
            assertEquals(alive.runningMemberCount(), orphaned.runningMemberCount());
            assertEquals(alive.singleCohort(), orphaned.singleCohort());
            assertEquals(alive.singleRevision(), orphaned.singleRevision());
            assertTrue(!orphaned.mutationGateSatisfied() || alive.mutationGateSatisfied());
            assertEquals(alive.inventoryComplete(), orphaned.inventoryComplete());
        });
    }

    @Test
    void aRecycledParentPidNeverHidesAnOrphan() {
        qt().forAll(FleetGen.observableFleets(), integers().between(2, 86_400)).checkAssert((snapshot, lateBy) -> {
            Set<Long> observed = snapshot.observation().processes().stream().map(ObservedProcess::pid)
                    .collect(Collectors.toSet());
            // Every gone client whose start the rows recorded: its pid now names a later process.
            Map<Long, Instant> recycled = new LinkedHashMap<>();
            for (RegistryRow row : snapshot.registry().rows()) {
                Instant start = Timestamps.parse(row.parentStartedAt()).orElse(null);
                if (row.parentPid() != null && start != null && !observed.contains(row.parentPid())) {
                    recycled.put(row.parentPid(), start.plusSeconds(lateBy));
                }
            }
            List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
            recycled.forEach((pid, start) -> processes.add(new ObservedProcess(pid, start, "bash", "fleet", false)));
            assertEquals(FleetClassifier.classify(snapshot).orphanedInstances(),
                    FleetClassifier.classify(observing(snapshot, processes)).orphanedInstances());
        });
    }

    @Test
    void everyOrphanIsALiveStdioInstanceWhoseRecordedParentTheSameObservationLacks() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Set<Instance> instances = verdict.members().stream().flatMap(report -> report.instances().stream())
                    .collect(Collectors.toSet());
            Map<String, RegistryRow> rows = snapshot.registry().rows().stream()
                    .collect(Collectors.toMap(RegistryRow::runtimeId, row -> row, (a, b) -> a));
            for (OrphanedInstance orphan : verdict.orphanedInstances()) {
                assertTrue(instances.contains(orphan.instance()), orphan::toString);
                RegistryRow row = rows.get(orphan.instance().runtimeId());
                assertEquals("stdio", row.transport());
                assertEquals(row.parentPid(), orphan.parentPid());
                Instant recorded = Timestamps.parse(row.parentStartedAt()).orElse(null);
                assertEquals(recorded, orphan.parentStartedAt());
                assertTrue(snapshot.observation().processes().stream().noneMatch(process ->
                        process.pid() == orphan.parentPid() && (recorded == null || process.startedAt() == null
                                || !ObservedProcess.startsDisagree(recorded, process.startedAt()))), orphan::toString);
            }
            assertEquals(verdict.orphanedInstances().isEmpty(), !codes(verdict).contains(BlockedCode.ORPHANED_MEMBER));
        });
    }

    @Test
    void theGeneratedFleetsHoldOrphansAndLiveClientsAlike() {
        // Guards the properties above against a generator that stopped making the case they are about.
        List<Snapshot> fleets = new ArrayList<>();
        qt().withExamples(300).forAll(FleetGen.observableFleets()).checkAssert(fleets::add);
        long withOrphans = fleets.stream().filter(s -> !FleetClassifier.classify(s).orphanedInstances().isEmpty()).count();
        assertTrue(withOrphans > 10 && withOrphans < fleets.size() - 10, withOrphans + " of " + fleets.size());
    }
}
