package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierProperties.live;
import static dev.fleet.domain.verdict.ClassifierProperties.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Wrapped servers over generated fleets ({@link FleetGen}): being served is the only way a server-looking
 * process stays out of {@code unregistered_processes}, what an instance lists as served really descends
 * from its server, and a member whose server has exited never runs.
 */
class WrappedServerPropertiesTest {

    private static Map<Long, ObservedProcess> byPid(Snapshot snapshot) {
        return snapshot.observation().processes().stream()
                .collect(Collectors.toMap(ObservedProcess::pid, Function.identity(), (a, b) -> a));
    }

    /**
     * A copy of any server-looking process (a served one included) that descends from no server closes the
     * gate as an unregistered process: only being served keeps its original out.
     */
    @Test
    void anUnservedCopyOfAServerLookingProcessAlwaysClosesTheGate() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, 1_000)).checkAssert((snapshot, which) -> {
            List<ObservedProcess> servers = snapshot.observation().processes().stream()
                    .filter(ObservedProcess::matchesServer).toList();
            if (servers.isEmpty()) {
                return;
            }
            ObservedProcess original = servers.get(which % servers.size());
            List<ObservedProcess> processes = new ArrayList<>(snapshot.observation().processes());
            processes.add(new ObservedProcess(99_999, original.startedAt(), original.commandLine(), original.user(),
                    true, which % 2 == 0 ? null : 1L));

            Verdict verdict = FleetClassifier.classify(with(snapshot, snapshot.registry().rows(), processes));

            assertFalse(verdict.mutationGateSatisfied());
            assertTrue(verdict.unregisteredProcesses().stream().anyMatch(process -> process.pid() == 99_999));
        });
    }

    /** Each served pid is a server-looking process of its instance's server's owner, at or below that server. */
    @Test
    void whatAnInstanceServesDescendsFromItsServer() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Map<Long, ObservedProcess> processes = byPid(snapshot);
            Set<Long> unregistered = verdict.unregisteredProcesses().stream().map(UnregisteredProcess::pid)
                    .collect(Collectors.toSet());
            live(verdict).filter(instance -> !instance.servedPids().isEmpty()).forEach(instance -> {
                assertNotNull(instance.serverPid(), instance.toString());
                assertEquals(instance.servedPids().stream().sorted().toList(), instance.servedPids(), "sorted");
                ObservedProcess server = processes.get(instance.serverPid());
                for (long pid : instance.servedPids()) {
                    ObservedProcess served = processes.get(pid);
                    assertTrue(served.matchesServer());
                    assertEquals(server.user(), served.user());
                    assertTrue(reachesWithin(processes, served, instance.serverPid()), () -> pid + " below "
                            + instance.serverPid());
                    assertFalse(unregistered.contains(pid));
                }
            });
        });
    }

    /** A row whose server has exited is never live, and every live row that wraps a server has it running. */
    @Test
    void aMemberWhoseServerExitedNeverRuns() {
        qt().forAll(FleetGen.observableFleets()).checkAssert(snapshot -> {
            Verdict verdict = FleetClassifier.classify(snapshot);
            Set<String> exited = verdict.staleRegistrations().stream()
                    .filter(flagged -> flagged.reason() == StaleReason.SERVER_EXITED)
                    .map(flagged -> flagged.instance().runtimeId()).collect(Collectors.toSet());
            assertTrue(live(verdict).noneMatch(instance -> exited.contains(instance.runtimeId())));
            Map<Long, ObservedProcess> processes = byPid(snapshot);
            live(verdict).filter(instance -> instance.serverPid() != null)
                    .forEach(instance -> assertNotNull(processes.get(instance.serverPid()), instance.toString()));
        });
    }

    /** Up from {@code process} through parents that started no later than their children, to {@code serverPid}. */
    private static boolean reachesWithin(Map<Long, ObservedProcess> processes, ObservedProcess process, long serverPid) {
        ObservedProcess current = process;
        for (int generation = 0; generation <= ObservedProcess.MAX_ANCESTRY && current != null; generation++) {
            if (current.pid() == serverPid) {
                return true;
            }
            ObservedProcess parent = current.parentPid() == null ? null : processes.get(current.parentPid());
            current = parent != null && parent.startedAt() != null && current.startedAt() != null
                    && !parent.startedAt().isAfter(current.startedAt()) ? parent : null;
        }
        return false;
    }
}
