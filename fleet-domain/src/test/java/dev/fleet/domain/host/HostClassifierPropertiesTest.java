package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * §14's classification is a function of the snapshot alone, and what it calls a stray is safe to stop:
 * the same bytes for the same snapshot in any order, no process both current and a stray, a manual
 * server never a stray, and every stop line naming exactly its tree with the starts observed and
 * nothing from outside.
 */
class HostClassifierPropertiesTest {

    private static final Pattern TARGET = Pattern.compile("([0-9]+):([0-9]+)");

    private static String bytes(HostSnapshot snapshot, boolean all) {
        HostInventory inventory = HostClassifier.inventory(snapshot, all);
        return HostReportDocument.canonicalJson(inventory.report()) + "\n" + inventory.stopScript();
    }

    /** The properties say something only if the hosts they draw hold every state: this keeps them so. */
    @Test
    void theGeneratedHostsHoldEveryState() {
        Set<ServerState> seen = new HashSet<>();
        qt().forAll(HostGen.hosts()).checkAssert(snapshot ->
                HostClassifier.classify(snapshot, true).servers().forEach(server -> seen.add(server.state())));
        assertEquals(Set.of(ServerState.values()), seen);
    }

    @Test
    void theSameSnapshotGivesTheSameBytes() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) ->
                assertEquals(bytes(snapshot, all), bytes(snapshot, all)));
    }

    @Test
    void theOrderOfProcessesAndEntriesNeverMatters() {
        qt().forAll(HostGen.hosts(), booleans().all(), longs().all()).checkAssert((snapshot, all, seed) -> {
            Random random = new Random(seed);
            List<HostProcess> processes = new ArrayList<>(snapshot.processes());
            List<ConfiguredServer> configured = new ArrayList<>(snapshot.configured());
            Collections.shuffle(processes, random);
            Collections.shuffle(configured, random);
            HostSnapshot shuffled = new HostSnapshot(configured, processes, snapshot.bootId(), snapshot.ownPid(),
                    snapshot.fleetPids(), snapshot.warnings());
            assertEquals(bytes(snapshot, all), bytes(shuffled, all));
        });
    }

    /**
     * A table that may hide other users' processes ({@code /proc}'s hidepid) proves no parent gone: whichever
     * processes it left out, every stray's top process has its parent in it, or init (the host audit's hidepid find).
     */
    @Test
    void inAPartialTableNoStrayHangsBelowAProcessItLeftOut() {
        qt().forAll(HostGen.hosts(), booleans().all(), longs().all()).checkAssert((snapshot, all, seed) -> {
            Random random = new Random(seed);
            List<HostProcess> listed = snapshot.processes().stream().filter(process -> random.nextInt(3) > 0).toList();
            HostSnapshot partial = new HostSnapshot(snapshot.configured(), listed, snapshot.bootId(),
                    snapshot.ownPid(), snapshot.fleetPids(), snapshot.warnings(), true, true);
            ProcessForest forest = ProcessForest.of(listed);
            for (HostServer server : HostClassifier.classify(partial, all).servers()) {
                HostProcess root = forest.get(server.rootPid());
                if (server.state().stray()) {
                    assertTrue(root.parentPid() <= ProcessForest.INIT || forest.parent(root) != null, server::toString);
                }
            }
        });
    }

    @Test
    void noProcessIsBothCurrentAndAStrayNorInTwoTrees() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) -> {
            HostReport report = HostClassifier.classify(snapshot, all);
            Map<Long, ServerState> stateOf = new TreeMap<>();
            for (HostServer server : report.servers()) {
                for (long pid : server.pids()) {
                    ServerState before = stateOf.put(pid, server.state());
                    assertNull(before, "pid " + pid + " is " + before + " and " + server.state());
                }
            }
            assertEquals(report.servers().stream().filter(server -> server.state().stray()).count(), report.strays());
        });
    }

    @Test
    void aManualServerIsNeverAStray() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) -> {
            Set<Long> byHand = new HashSet<>();
            snapshot.processes().stream().filter(HostProcess::stdinTerminal).forEach(process -> byHand.add(process.pid()));
            for (HostServer server : HostClassifier.classify(snapshot, all).servers()) {
                if (byHand.contains(server.rootPid())) {
                    assertEquals(ServerState.MANUAL.stray(), server.state().stray(), server.toString());
                }
                if (server.state() == ServerState.MANUAL) {
                    assertNull(server.stop());
                }
            }
        });
    }

    /**
     * Over a socket, who holds a server's peer is only a guess (the socket numbered next to it): a guess never makes
     * a stray. No process that reads a socket is a leftover, and a server reparented to init or a reaper whose
     * socket's neighbour some live process holds is never a stray (the host audit's H2).
     */
    @Test
    void aSocketsNeighbourNeverMakesAStray() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) -> {
            ProcessForest forest = ProcessForest.of(snapshot.processes());
            Set<Long> held = new HashSet<>();
            snapshot.processes().forEach(process -> held.addAll(process.pipesWritten()));
            for (HostServer server : HostClassifier.classify(snapshot, all).servers()) {
                HostProcess root = forest.get(server.rootPid());
                if (root == null || !root.stdinSocket()) {
                    continue;
                }
                assertNotEquals(ServerState.LEFTOVER, server.state(), server.toString());
                HostProcess parent = forest.parent(root);
                boolean reparented = parent == null || parent.pid() <= ProcessForest.INIT || Reapers.is(parent);
                if (reparented && held.contains(root.stdinPipe())) {
                    assertFalse(server.state().stray(), server.toString());
                }
            }
        });
    }

    @Test
    void everyStrayHasAStopLineNamingExactlyItsTreeWithTheObservedStarts() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) -> {
            ProcessForest forest = ProcessForest.of(snapshot.processes());
            HostInventory inventory = HostClassifier.inventory(snapshot, all);
            List<String> targets = new ArrayList<>();
            for (HostServer server : inventory.report().servers()) {
                if (!server.state().stray()) {
                    assertNull(server.stop(), server.toString());
                    continue;
                }
                assertNotNull(server.stop(), server.toString());
                assertTrue(StopLineTest.SHAPE.matcher(server.stop()).matches(), server.stop());
                List<Long> pids = new ArrayList<>();
                Matcher target = TARGET.matcher(server.stop());
                while (target.find()) {
                    long pid = Long.parseLong(target.group(1));
                    pids.add(pid);
                    assertEquals(forest.get(pid).startTicks(), Long.parseLong(target.group(2)));
                    targets.add(target.group());
                }
                assertEquals(server.pids(), pids);
                assertEquals(server.rootPid(), pids.get(0));
            }
            String script = inventory.stopScript();
            StopScriptTest.assertShape(script);
            List<String> scripted = new ArrayList<>();
            Matcher target = TARGET.matcher(script.substring(script.lastIndexOf("\n(set -f") + 1));
            while (!targets.isEmpty() && target.find()) {
                scripted.add(target.group());
            }
            assertEquals(targets, scripted, "the script stops exactly every stray's tree");
        });
    }

    @Test
    void noStopLineHoldsANewlineOrTextFromOutside() {
        qt().forAll(HostGen.hosts(), booleans().all()).checkAssert((snapshot, all) -> {
            for (HostServer server : HostClassifier.classify(snapshot, all).servers()) {
                if (server.stop() != null) {
                    assertFalse(server.stop().contains("\n"));
                    for (String hostile : HostGen.HOSTILE) {
                        if (!hostile.isEmpty()) {
                            assertFalse(server.stop().contains(hostile), hostile + " in " + server.stop());
                        }
                    }
                    assertTrue(StopLineTest.SHAPE.matcher(server.stop()).matches(), server.stop());
                }
            }
        });
    }
}
