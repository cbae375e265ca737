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
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Snapshot;
import java.time.Instant;
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

    /**
     * A live row whose {@code server_pid} names anything but its own child started at the recorded instant
     * (its client, init, itself, a process that is not its child, its child with a start more than 1 s off
     * or none recorded) hides nothing: a copy of a member's server started below the process it names is an
     * unregistered process, and the gate is closed, in any generated fleet.
     */
    @Test
    void aSpoofedServerPidNeverHidesAnUnregisteredServerProcess() {
        qt().forAll(FleetGen.observableFleets(), integers().between(0, Spoof.KINDS - 1), integers().between(0, 1_000))
                .checkAssert((snapshot, kind, which) -> {
                    Spoof spoof = Spoof.of(snapshot, kind, which);

                    Verdict verdict = FleetClassifier.classify(with(snapshot, spoof.rows(), spoof.processes()));

                    assertTrue(verdict.unregisteredProcesses().stream().anyMatch(p -> p.pid() == Spoof.STRAY),
                            () -> "kind " + kind + ": " + verdict.unregisteredProcesses());
                    assertFalse(verdict.mutationGateSatisfied());
                    if (kind != Spoof.START_OFF) { // a start off by more than 1 s is server_exited: not live
                        assertTrue(live(verdict).anyMatch(instance -> instance.runtimeId().equals(Spoof.RUNTIME)),
                                () -> "kind " + kind + ": the spoofing row is live");
                    }
                });
    }

    /**
     * A generated fleet plus a member's live row (pid {@value #ROW}, started by client {@value #CLIENT}) whose
     * {@code server_pid} is spoofed, and a copy of its server ({@value #STRAY}) started below the pid it names.
     */
    private record Spoof(List<RegistryRow> rows, List<ObservedProcess> processes) {
        static final int KINDS = 6;
        static final int START_OFF = 4;
        static final long ROW = 97_000;
        static final long CLIENT = 97_001;
        static final long OTHER = 97_002;
        static final long STRAY = 97_100;
        static final String RUNTIME = "rt-spoofing";

        static Spoof of(Snapshot snapshot, int kind, int which) {
            RosterMember member = snapshot.roster().members().get(which % snapshot.roster().members().size());
            String user = WrappedFleet.USER;
            Instant clientStarted = FleetGen.CLIENT_STARTED;
            Instant initStarted = clientStarted.minusSeconds(3_600);
            Map<Long, ObservedProcess> processes = new java.util.TreeMap<>(byPid(snapshot));
            processes.put(1L, new ObservedProcess(1, initStarted, "/sbin/init", user, false, null));
            processes.put(CLIENT, new ObservedProcess(CLIENT, clientStarted, "claude", user, false, null));
            processes.put(ROW, new ObservedProcess(ROW, Scenario.STARTED, Scenario.serveCommand(member.profile()),
                    user, true, CLIENT));
            Instant childStarted = WrappedFleet.SERVER_STARTED;
            long offMillis = (1_001 + which * 59L) * (which % 2 == 0 ? 1 : -1);
            long target;
            Instant recorded;
            switch (kind) {
                case 0 -> { target = CLIENT; recorded = clientStarted.plusMillis(which % 1_000); }
                case 1 -> { target = 1; recorded = which % 2 == 0 ? null : initStarted; }
                case 2 -> { target = ROW; recorded = which % 2 == 0 ? null : Scenario.STARTED; }
                case 3 -> {
                    target = OTHER;
                    recorded = childStarted;
                    long parent = List.of(1L, CLIENT, STRAY + 1).get(which % 3); // init's, the client's, or none seen
                    processes.put(OTHER, new ObservedProcess(OTHER, childStarted, "sh -c helper", user, false, parent));
                }
                default -> {
                    target = OTHER;
                    recorded = kind == START_OFF ? childStarted.plusMillis(offMillis) : null;
                    processes.put(OTHER, new ObservedProcess(OTHER, childStarted, WrappedFleet.serverCommand(
                            member.profile()), user, true, ROW)); // its real child
                }
            }
            processes.put(STRAY, new ObservedProcess(STRAY, WrappedFleet.SERVER_STARTED.plusSeconds(5),
                    WrappedFleet.serverCommand(member.profile()), user, true, target));
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            rows.add(RowBuilder.registered(member, ROW).parent(CLIENT, clientStarted)
                    .wraps(WrappedFleet.serverCommand(member.profile()), target, recorded)
                    .with(r -> r.runtimeId = RUNTIME).build());
            return new Spoof(rows, List.copyOf(processes.values()));
        }
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
