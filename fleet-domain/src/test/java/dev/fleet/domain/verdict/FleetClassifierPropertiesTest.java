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
import dev.fleet.domain.verdict.encoding.CanonicalJson;
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
                observation instanceof ProcessObservation.Available
                        ? ProcessObservation.of(observation.bootId(), observation.hostname(), observation.pidNamespace(),
                                processes)
                        : observation,
                snapshot.observedAt(), snapshot.registryPath(), snapshot.answeredBy());
    }

    private static Stream<Instance> live(Verdict verdict) {
        return Stream.concat(verdict.members().stream().flatMap(report -> report.instances().stream()),
                verdict.unexpectedMembers().stream().map(FlaggedRegistration::instance));
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
                    verdict.staleRegistrations().stream().map(flagged -> flagged.instance().runtimeId()),
                    verdict.unverifiedRegistrations().stream().map(flagged -> flagged.instance().runtimeId()),
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
                    ProcessObservation.unavailable(ListingReason.IO_ERROR, null, "host", null),
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

    @Test
    void heartbeatInstantsNeverChangeTheDigest() {
        qt().forAll(FleetGen.fleets(), longs().all()).checkAssert((snapshot, seed) -> {
            Random random = new Random(seed);
            List<RegistryRow> ticked = snapshot.registry().rows().stream()
                    // A heartbeat is a liveness tick only where it is one: an unparseable one stays malformed.
                    .map(row -> Timestamps.parse(row.lastHeartbeatAt()).isEmpty() ? row
                            : RowBuilder.from(row).with(r -> r.lastHeartbeatAt = Timestamps.format(
                                    RowBuilder.REGISTERED.plusMillis(random.nextInt(86_400_000)))).build())
                    .toList();
            Verdict before = FleetClassifier.classify(snapshot);
            Verdict after = FleetClassifier.classify(with(snapshot, ticked, snapshot.observation().processes()));
            assertEquals(before.verdictDigest(), after.verdictDigest());
            assertEquals(Digested.strip(VerdictDocument.toTree(before)), Digested.strip(VerdictDocument.toTree(after)));
        });
    }

    /**
     * The digest covers exactly the document less observation and heartbeats: after any change to
     * one column of one row, the digest changes exactly when that part of the document does.
     */
    @Test
    void everyOtherChangeThatShowsInTheVerdictChangesTheDigest() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000), integers().between(0, 13))
                .checkAssert((snapshot, which, column) -> {
                    List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
                    if (rows.isEmpty()) {
                        return;
                    }
                    int index = which % rows.size();
                    rows.set(index, change(RowBuilder.from(rows.get(index)), column).build());
                    Verdict before = FleetClassifier.classify(snapshot);
                    Verdict after = FleetClassifier.classify(with(snapshot, rows, snapshot.observation().processes()));
                    boolean shownDiffers = !Digested.strip(VerdictDocument.toTree(before))
                            .equals(Digested.strip(VerdictDocument.toTree(after)));
                    assertEquals(shownDiffers, !before.verdictDigest().equals(after.verdictDigest()),
                            "column " + column + " of row " + index);
                });
    }

    private static RowBuilder change(RowBuilder row, int column) {
        return row.with(r -> {
            switch (column) {
                case 0 -> r.cohortId = "ppid:" + (r.cohortId == null ? 1 : r.cohortId.length() + 7);
                case 1 -> r.startupHead = r.startupHead == null ? "ddd444" : null;
                case 2 -> r.registeredAt = Timestamps.format(RowBuilder.REGISTERED.plusSeconds(17));
                case 3 -> r.pid = r.pid == null ? 77 : r.pid + 50_000;
                case 4 -> r.profile = r.profile + "-x";
                case 5 -> r.status = "running".equals(r.status) ? "stopped" : "running";
                case 6 -> r.transport = "streamable_http";
                case 7 -> r.clientProvenance = "operator_managed";
                case 8 -> r.processStartedAt = Timestamps.format(Scenario.STARTED.minusSeconds(30));
                case 9 -> r.bootId = "boot-elsewhere";
                case 10 -> r.pidNamespace = FleetGen.OTHER_PID_NAMESPACE;
                case 11 -> r.repo = "Another-Repo";
                case 12 -> r.cohortSource = "parent_process";
                default -> r.runtimeId = r.runtimeId + "-renamed";
            }
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

    /**
     * Twins that share every sort key (runtime_id, namespace, profile, pid, registered_at) but differ in
     * content are a conflict, never settled by the order the rows came in: every shuffle gives the
     * same bytes and digest, and both twins are malformed.
     */
    @Test
    void twinsThatShareEverySortKeyGiveOneVerdictInEveryOrder() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000), longs().all())
                .checkAssert((snapshot, which, seed) -> {
                    List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
                    if (rows.isEmpty()) {
                        return;
                    }
                    RegistryRow original = rows.get(which % rows.size());
                    rows.add(RowBuilder.from(original).with(r -> {
                        r.cohortId = "ppid:twin";
                        r.startupHead = which % 2 == 0 ? r.startupHead : "eee555";
                    }).build());
                    Snapshot twinned = with(snapshot, rows, snapshot.observation().processes());
                    Verdict verdict = FleetClassifier.classify(twinned);
                    Collections.shuffle(rows, new Random(seed));
                    Verdict shuffled = FleetClassifier.classify(with(snapshot, rows, snapshot.observation().processes()));
                    assertEquals(VerdictDocument.canonicalJson(verdict), VerdictDocument.canonicalJson(shuffled));
                    assertEquals(verdict.verdictDigest(), shuffled.verdictDigest());
                    if (original.interpret() instanceof dev.fleet.domain.Registration) {
                        assertEquals(2, verdict.malformedRegistrations().stream().filter(malformed ->
                                malformed.runtimeId().equals(original.runtimeId())
                                        && malformed.reason() == dev.fleet.domain.MalformedReason.CONFLICTING_CLAIMS)
                                .count());
                        assertTrue(live(verdict).noneMatch(instance -> instance.runtimeId().equals(original.runtimeId())));
                    }
                });
    }
}
