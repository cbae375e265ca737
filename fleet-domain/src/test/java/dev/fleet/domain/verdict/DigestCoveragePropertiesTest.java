package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierProperties.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the verdict digest covers: not the heartbeats, which tick on a healthy fleet, and every other
 * column of a row exactly as far as the change shows in the verdict.
 */
class DigestCoveragePropertiesTest {

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
}
