package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.port.out.ProcessObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ancestor walk's bounds, over made-up tables: a chain too deep, and too many distinct parents. */
class AncestorsTest {

    /** A process whose parent is the next pid up, {@code top} having none. */
    private static ObservedProcess process(long pid, boolean server, long top) {
        return new ObservedProcess(pid, null, server ? "server" : "shell", "fleet", server, pid < top ? pid + 1 : null);
    }

    @Test
    void aChainIsClimbedAtMostMaxAncestryGenerationsAndEachAncestorReadOnce() {
        AtomicInteger reads = new AtomicInteger();
        List<ObservedProcess> found = List.of(process(1_000, true, 2_000), process(1_001, true, 2_000));

        List<ObservedProcess> ancestors = Ancestors.of(found, pid -> {
            reads.incrementAndGet();
            return process(pid, false, 2_000);
        });

        // 1,001 is already known (a match itself); above it one generation each, up to the bound.
        assertEquals(ObservedProcess.MAX_ANCESTRY, ancestors.size());
        assertEquals(1_002, ancestors.get(0).pid());
        assertEquals(ObservedProcess.MAX_ANCESTRY, reads.get());
    }

    @Test
    void noMoreThanMaxAncestorsProcessesAreReadForOneObservation() {
        List<ObservedProcess> found = new ArrayList<>();
        for (long pid = 10_000; pid < 12_000; pid++) {
            found.add(new ObservedProcess(pid, null, "server", "fleet", true, pid + 5_000));
        }
        AtomicInteger reads = new AtomicInteger();

        List<ObservedProcess> ancestors = Ancestors.of(found, pid -> {
            reads.incrementAndGet();
            return new ObservedProcess(pid, null, "shell", "fleet", false, 1L);
        });

        assertEquals(ProcessObserver.MAX_ANCESTORS, reads.get());
        assertEquals(ProcessObserver.MAX_ANCESTORS, ancestors.size());
    }

    @Test
    void aGoneAncestorEndsItsChainAndOnlyMatchesAreClimbedFrom() {
        List<ObservedProcess> found = List.of(new ObservedProcess(5, null, "server", "fleet", true, 6L),
                new ObservedProcess(7, null, "registered, no server", "fleet", false, 8L));

        List<ObservedProcess> ancestors = Ancestors.of(found, pid -> null);

        assertEquals(List.of(), ancestors);
    }
}
