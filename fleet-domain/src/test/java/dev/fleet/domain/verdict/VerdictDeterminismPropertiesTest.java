package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierProperties.live;
import static dev.fleet.domain.verdict.ClassifierProperties.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The verdict is a function of the snapshot alone: the same snapshot gives the same verdict and bytes,
 * and no order the registry or the process listing returns its rows in can change them.
 */
class VerdictDeterminismPropertiesTest {

    private static String json(Verdict verdict) {
        return CanonicalJson.encode(VerdictDocument.toTree(verdict));
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

    /**
     * A listing that repeats a pid (a process table read twice, a scan and a lookup by pid) with copies
     * differing only in their parent: which copy stands for the pid must not depend on the order the
     * listing gives them in. The choice once ignored the parent, so the first copy won, and with it the
     * orphan rule's answer.
     */
    @Test
    void aPidListedTwiceWithAnotherParentGivesOneVerdictInEveryOrder() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000), longs().all())
                .checkAssert((snapshot, which, seed) -> {
                    List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
                    if (processes.isEmpty()) {
                        return;
                    }
                    ObservedProcess original = processes.get(which % processes.size());
                    Long otherParent = original.parentPid() == null ? Long.valueOf(FleetGen.FIRST_CLIENT_PID) : null;
                    processes.add(new ObservedProcess(original.pid(), original.startedAt(), original.commandLine(),
                            original.user(), original.matchesServer(), otherParent));
                    List<RegistryRow> rows = snapshot.registry().rows();
                    String first = json(FleetClassifier.classify(with(snapshot, rows, processes)));
                    Collections.reverse(processes);
                    assertEquals(first, json(FleetClassifier.classify(with(snapshot, rows, processes))));
                    Collections.shuffle(processes, new Random(seed));
                    assertEquals(first, json(FleetClassifier.classify(with(snapshot, rows, processes))));
                });
    }
}
