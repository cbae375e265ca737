package dev.fleet.domain.assessment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Scenario;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Assessments asked for at once share one, never one older than the request, and never two at once. */
class SharedAssessmentsTest {

    private static final Scenario FLEET = Scenario.healthyFive();
    private static final int CALLERS = 40;

    @Test
    void aBurstSharesAFewAssessmentsEachBegunAfterItsCallerAsked() throws Exception {
        AtomicLong clock = new AtomicLong();
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Map<Verdict, Long> begunAt = Collections.synchronizedMap(new IdentityHashMap<>());
        AssessFleetInventoryUseCase slow = () -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            long began = clock.incrementAndGet();
            // The first assessment lasts until every caller has asked: the others all wait behind it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (asked.get() < CALLERS && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            Verdict verdict = FLEET.classify();
            begunAt.put(verdict, began);
            running.decrementAndGet();
            return verdict;
        };
        SharedAssessments shared = new SharedAssessments(slow);
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            List<Future<long[]>> answers = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                answers.add(callers.submit(() -> {
                    long askedAt = clock.incrementAndGet();
                    asked.incrementAndGet();
                    Verdict verdict = shared.assess();
                    return new long[] {askedAt, begunAt.get(verdict)};
                }));
            }
            for (Future<long[]> answer : answers) {
                long[] times = answer.get(120, TimeUnit.SECONDS);
                assertTrue(times[1] > times[0], "a verdict begun before its caller asked was shared");
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(1, mostAtOnce.get(), "assessments ran at once");
        assertTrue(begunAt.size() <= CALLERS / 4, "a burst of " + CALLERS + " made " + begunAt.size() + " assessments");
    }

    @Test
    void anAssessmentThatFailsLeavesNothingToShare() {
        AtomicInteger calls = new AtomicInteger();
        SharedAssessments shared = new SharedAssessments(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("a bug in the first");
            }
            return FLEET.classify();
        });
        assertThrows(IllegalStateException.class, shared::assess);
        Verdict second = shared.assess();
        assertTrue(second != shared.assess(), "each call alone assesses again");
        assertEquals(3, calls.get());
    }
}
