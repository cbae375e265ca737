package dev.fleet.domain.assessment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Scenario;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
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
    /** Longer than any wait these tests make on a loaded host: no caller goes alone. */
    private static final Duration LONG_PATIENCE = Duration.ofSeconds(120);

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
        SharedAssessments shared = new SharedAssessments(slow, LONG_PATIENCE);
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

    /**
     * A thread interrupted while it assessed (a cancelled request, a closing server) shares nothing: two
     * callers wait behind a first assessment, the one that then assesses is interrupted meanwhile, and
     * the other assesses afresh rather than take that verdict.
     */
    @Test
    void anAssessmentOnAnInterruptedThreadIsNotShared() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger waiting = new AtomicInteger();
        SharedAssessments shared = new SharedAssessments(() -> {
            int call = calls.incrementAndGet();
            if (call == 1) {
                awaitUntil(() -> waiting.get() == 2);
                pause(200); // for both to note the number and queue (a slower host only makes this test weaker, never red)
            } else if (call == 2) {
                Thread.currentThread().interrupt(); // as a registry read answers "interrupted while reading"
            }
            return FLEET.classify();
        }, LONG_PATIENCE);
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try {
            Future<?> first = callers.submit(shared::assess);
            awaitUntil(() -> calls.get() == 1);
            List<Future<?>> behind = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                behind.add(callers.submit(() -> {
                    waiting.incrementAndGet();
                    return shared.assess();
                }));
            }
            first.get(120, TimeUnit.SECONDS);
            for (Future<?> caller : behind) {
                caller.get(120, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(3, calls.get(), "the interrupted thread's verdict was shared");
    }

    /** One stuck assessment (a /proc read the kernel holds) holds nobody past the patience: they go alone. */
    @Test
    void aCallerWaitsNoLongerThanItsPatienceBehindAStuckAssessment() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        SharedAssessments shared = new SharedAssessments(() -> {
            if (calls.incrementAndGet() == 1) {
                try {
                    release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return FLEET.classify();
        }, Duration.ofMillis(200));
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Future<?> stuck = callers.submit(shared::assess);
            awaitUntil(() -> calls.get() == 1);
            Future<?> alone = callers.submit(shared::assess);
            alone.get(120, TimeUnit.SECONDS);
            assertEquals(2, calls.get(), "the second caller assessed by itself");
            assertTrue(!stuck.isDone(), "the first is still stuck");
            release.countDown();
            stuck.get(120, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
