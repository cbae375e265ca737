package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierProperties.live;
import static dev.fleet.domain.verdict.ClassifierProperties.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What may count as a live instance, whatever else a snapshot holds: each running row lands in exactly
 * one place (a member's server registering itself lands in that member's {@code served_pids}), one process
 * is at most one instance, and it is a server process of this pid namespace that started before its row
 * registered.
 */
class LiveInstancePropertiesTest {

    @Test
    void everyRunningRowLandsInExactlyOnePlace() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Map<String, Integer> placements = new HashMap<>();
            Stream.of(
                    live(verdict).map(Instance::runtimeId),
                    verdict.staleRegistrations().stream().map(flagged -> flagged.instance().runtimeId()),
                    verdict.unverifiedRegistrations().stream().map(flagged -> flagged.instance().runtimeId()),
                    verdict.malformedRegistrations().stream().map(malformed -> malformed.runtimeId()))
                    .flatMap(ids -> ids)
                    .forEach(id -> placements.merge(id, 1, Integer::sum));
            for (RegistryRow row : snapshot.registry().rows()) {
                if ("running".equals(row.status())) {
                    int placed = placements.getOrDefault(row.runtimeId(), 0);
                    boolean servedAsItsMember = live(verdict).anyMatch(instance -> instance.servedPids().contains(
                            row.pid()) && RemoteRows.identityOf(instance).equals(
                                    new dev.fleet.domain.RosterMember(row.namespace(), row.profile(), row.role())));
                    assertEquals(1, placed + (placed == 0 && servedAsItsMember ? 1 : 0), row.runtimeId());
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
    void aRegistrationWhoseProcessStartedAfterItRegisteredIsNeverLive() {
        qt().forAll(FleetGen.observableFleets(), integers().between(1, 3_600)).checkAssert((snapshot, lateBy) -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            live(verdict).forEach(instance -> assertFalse(
                    instance.observedProcessStartedAt().truncatedTo(ChronoUnit.SECONDS).isAfter(instance.registeredAt()),
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
    void aRegistrationFromAnotherPidNamespaceNeverCountsAndAlwaysBlocks() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000)).checkAssert((snapshot, which) -> {
            List<ObservedProcess> processes = snapshot.observation().processes();
            // The foreign row names a pid that is alive here, or one that is not: neither may matter.
            long pid = processes.isEmpty() || which % 2 == 0 ? 700_000 + which
                    : processes.get(which % processes.size()).pid();
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            rows.add(RowBuilder.row(snapshot.roster().members().get(which % snapshot.roster().members().size()), pid)
                    .with(r -> {
                        r.runtimeId = "rt-foreign-" + which;
                        r.pidNamespace = "pid:[4026533000]"; // a namespace no generated row uses
                    }).build());
            Verdict verdict = FleetClassifier.classify(with(snapshot, rows, processes));
            assertFalse(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
            assertTrue(verdict.blockedReasons().stream()
                    .anyMatch(reason -> reason.code() == BlockedCode.PID_NAMESPACE_MISMATCH));
            assertTrue(verdict.unverifiedRegistrations().stream().anyMatch(flagged ->
                    flagged.instance().runtimeId().equals("rt-foreign-" + which)
                            && flagged.reason() == UnverifiedReason.OTHER_PID_NAMESPACE));
            assertTrue(live(verdict).noneMatch(instance -> instance.runtimeId().equals("rt-foreign-" + which)));
        });
    }

    /** Rule 4c: whatever else a snapshot holds, a row naming a live process that is no server never counts. */
    @Test
    void aLiveProcessThatIsNoServerNeverCountsAndAlwaysBlocks() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000)).checkAssert((snapshot, which) -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Map<Long, ObservedProcess> byPid = new HashMap<>();
            snapshot.observation().processes().forEach(process -> byPid.put(process.pid(), process));
            live(verdict).forEach(instance -> assertTrue(byPid.get(instance.pid()).matchesServer(), instance.runtimeId()));

            long pid = 800_000 + which;
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            rows.add(RowBuilder.row(snapshot.roster().members().get(which % snapshot.roster().members().size()), pid)
                    .with(r -> r.runtimeId = "rt-sleep-" + which).build());
            List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
            processes.add(new ObservedProcess(pid, Scenario.STARTED, "sleep 600", "nobody", false));
            Verdict impersonated = FleetClassifier.classify(with(snapshot, rows, processes));
            assertFalse(impersonated.mutationGateSatisfied());
            assertTrue(live(impersonated).noneMatch(instance -> instance.pid() == pid));

            // No process a server: nothing runs, whatever the rows say.
            List<ObservedProcess> noServers = snapshot.observation().processes().stream()
                    .map(process -> new ObservedProcess(process.pid(), process.startedAt(), "sleep 600", process.user(),
                            false))
                    .toList();
            Verdict none = FleetClassifier.classify(with(snapshot, snapshot.registry().rows(), noServers));
            assertEquals(0, none.runningMemberCount());
            assertEquals(0, live(none).count());
            assertFalse(none.mutationGateSatisfied());
        });
    }
}
