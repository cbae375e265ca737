package dev.fleet.domain.assessment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.verdict.Verdict;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AssessFleetInventoryServiceTest {

    /** A fake of the evidence port: the rows of a scenario. */
    private record ScenarioRegistry(Scenario scenario) implements RegistryEvidence {
        @Override
        public RegistryRead readAll() {
            return RegistryRead.of(scenario.rows);
        }

        @Override
        public String location() {
            return "/fake/registry.sqlite3";
        }
    }

    @Test
    void readsTheRegistryThenObservesItsPidsAndClassifies() {
        Scenario scenario = Scenario.healthyFive().row(RowBuilder.row(Scenario.member("author"), 9100)
                .with(r -> r.status = "stopped"));
        AtomicReference<Set<Long>> askedPids = new AtomicReference<>();
        AtomicReference<List<String>> askedPatterns = new AtomicReference<>();
        ProcessObserver observer = (patterns, pids, ancestors) -> {
            askedPatterns.set(patterns);
            askedPids.set(pids);
            return ProcessObservation.of(RowBuilder.BOOT, "fleet-host", RowBuilder.PID_NAMESPACE, scenario.processes);
        };
        AnsweredBy controller = new AnsweredBy(4102, "gitea-controller", "prgs-controller");

        Verdict verdict = new AssessFleetInventoryService(scenario.roster, new ScenarioRegistry(scenario), observer,
                () -> Scenario.OBSERVED_AT, controller).assess();

        assertEquals(Set.of(4100L, 4101L, 4102L, 4103L, 4104L, 9100L), askedPids.get());
        assertEquals(scenario.roster.serverProcessPatterns(), askedPatterns.get());
        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(Scenario.OBSERVED_AT, verdict.observation().observedAt());
        assertEquals("/fake/registry.sqlite3", verdict.observation().registryPath());
        assertEquals(controller, verdict.observation().answeredBy());
        assertEquals(scenario.classify().verdictDigest(), verdict.verdictDigest());
    }

    @Test
    void theParentsRowsRecordedAreObservedWithTheirServers() {
        // One observation answers both questions, so a client's liveness is a fact of the snapshot.
        Scenario scenario = Scenario.healthyFive().row(RowBuilder.row(Scenario.member("author"), 9100)
                .parent(900, Scenario.STARTED).with(r -> r.status = "stopped"))
                .row(RowBuilder.row(Scenario.member("author"), 9101).parent(0, null));
        AtomicReference<Set<Long>> askedPids = new AtomicReference<>();
        ProcessObserver observer = (patterns, pids, ancestors) -> {
            askedPids.set(pids);
            return ProcessObservation.of(RowBuilder.BOOT, "fleet-host", RowBuilder.PID_NAMESPACE, scenario.processes);
        };
        new AssessFleetInventoryService(scenario.roster, new ScenarioRegistry(scenario), observer,
                () -> Scenario.OBSERVED_AT, null).assess();
        assertEquals(Set.of(4100L, 4101L, 4102L, 4103L, 4104L, 9100L, 900L, 9101L), askedPids.get());
    }

    /** A wrapped server's pid is observed too, and ancestors are asked for only when some row wraps one. */
    @Test
    void theServersRowsWrapAreObservedWithTheirAncestorsAndOnlyThen() {
        Scenario plain = Scenario.healthyFive();
        AtomicReference<Boolean> askedAncestors = new AtomicReference<>();
        AtomicReference<Set<Long>> askedPids = new AtomicReference<>();
        ProcessObserver observer = new ProcessObserver() {
            @Override
            public ProcessObservation observe(List<String> patterns, Set<Long> pids) {
                throw new AssertionError("the assessment says whether it needs ancestors");
            }

            @Override
            public ProcessObservation observe(List<String> patterns, Set<Long> pids, boolean ancestors) {
                askedAncestors.set(ancestors);
                askedPids.set(pids);
                return ProcessObservation.of(RowBuilder.BOOT, "fleet-host", RowBuilder.PID_NAMESPACE, List.of());
            }
        };
        new AssessFleetInventoryService(plain.roster, new ScenarioRegistry(plain), observer,
                () -> Scenario.OBSERVED_AT, null).assess();
        assertEquals(false, askedAncestors.get(), "no row wraps a server: no ancestor is read");

        Scenario wrapping = Scenario.healthyFive().row(RowBuilder.row(Scenario.member("author"), 9100)
                .wraps("python3 server.py", 9101, Scenario.STARTED));
        new AssessFleetInventoryService(wrapping.roster, new ScenarioRegistry(wrapping), observer,
                () -> Scenario.OBSERVED_AT, null).assess();
        assertEquals(true, askedAncestors.get());
        assertEquals(Set.of(4100L, 4101L, 4102L, 4103L, 4104L, 9100L, 9101L), askedPids.get());
    }
}
