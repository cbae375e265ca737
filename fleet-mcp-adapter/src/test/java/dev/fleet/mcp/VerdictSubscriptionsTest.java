package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The watcher behind the resource's subscriptions, with fakes for the assessment and the SDK's subscriptions. */
class VerdictSubscriptionsTest {

    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final String A = "sha256:" + "a".repeat(64);
    private static final String B = "sha256:" + "b".repeat(64);

    private final AtomicInteger assessments = new AtomicInteger();
    private final AtomicReference<String> digest = new AtomicReference<>(A);
    private final AtomicInteger subscribers = new AtomicInteger();
    private final AtomicInteger notifications = new AtomicInteger();
    private final VerdictSubscriptions subscriptions = new VerdictSubscriptions(() -> {
        assessments.incrementAndGet();
        return digest.get();
    }, subscribers::get, notifications::incrementAndGet, PERIOD);

    @Test
    void withoutASubscriptionNothingIsAssessed() throws InterruptedException {
        Thread.sleep(PERIOD.toMillis() * 15);
        assertEquals(0, assessments.get());
        assertFalse(subscriptions.running());
    }

    @Test
    void aSubscriberIsNotifiedOnceForOneChangeAndNeverForTheSameDigest() throws InterruptedException {
        subscribers.set(1);
        subscriptions.wake();
        await(() -> assessments.get() >= 5, "the watcher looks every period");
        assertEquals(0, notifications.get(), "the first look is the baseline; an unchanged digest is no change");

        digest.set(B);
        await(() -> notifications.get() == 1, "one notification for the change");
        int seen = assessments.get();
        await(() -> assessments.get() >= seen + 5, "more looks at the new digest");
        assertEquals(1, notifications.get(), "exactly one");
        subscriptions.close();
    }

    /**
     * A 2025 subscription is acknowledged once the watcher has its baseline: a change the client makes as soon as
     * the acknowledgement comes is announced. Acknowledged at once, that change could be the first look's, the
     * baseline, and never be announced.
     */
    @Test
    void aChangeRightAfterTheAcknowledgementIsAnnounced() throws InterruptedException {
        subscribers.set(1);
        subscriptions.subscribed(Duration.ofSeconds(10));
        digest.set(B);

        await(() -> notifications.get() == 1, "the change after the acknowledgement is announced");
        subscriptions.close();
    }

    /**
     * A plain member's SDK records the subscription only after the acknowledgement, so the watcher counts none while
     * it takes its baseline; a first look slower than a period makes the second at once, which counted none and
     * stopped the watcher, leaving the subscription unwatched (the review's find). It keeps watching now.
     */
    @Test
    void aSubscriptionTheSdkRecordsAfterASlowFirstLookIsStillWatched() throws InterruptedException {
        AtomicInteger looks = new AtomicInteger();
        VerdictSubscriptions slow = new VerdictSubscriptions(() -> {
            if (looks.incrementAndGet() == 1) {
                sleep(PERIOD.multipliedBy(3));
            }
            return digest.get();
        }, subscribers::get, notifications::incrementAndGet, PERIOD);
        try {
            slow.subscribed(Duration.ofSeconds(10));
            await(() -> looks.get() >= 3, "looks after the acknowledgement, while the SDK records the subscription");
            subscribers.set(1); // the SDK has recorded it
            digest.set(B);

            await(() -> notifications.get() == 1, "the change is announced");
            assertTrue(slow.running());
        } finally {
            slow.close();
        }
    }

    /** A watcher that stops without a baseline (closed) lets the acknowledgement go at once, not after the whole wait. */
    @Test
    void closingEndsTheWaitForABaseline() throws InterruptedException {
        VerdictSubscriptions stuck = new VerdictSubscriptions(() -> {
            sleep(Duration.ofSeconds(30));
            return digest.get();
        }, subscribers::get, notifications::incrementAndGet, PERIOD);
        Thread closer = new Thread(() -> {
            sleep(Duration.ofMillis(200));
            stuck.close();
        });
        closer.start();
        long start = System.nanoTime();
        stuck.subscribed(Duration.ofSeconds(20));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "the wait ended with the close");
        closer.join();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Counting the subscribers asks the SDK, which may time out on a starved host or throw: that tick cannot say
     * nobody is subscribed, so the watcher goes on, and a change after it is still announced.
     */
    @Test
    void aCountThatFailsKeepsTheWatcherWatching() throws InterruptedException {
        AtomicInteger counts = new AtomicInteger();
        VerdictSubscriptions flaky = new VerdictSubscriptions(digest::get, () -> {
            if (counts.incrementAndGet() == 2) {
                throw new IllegalStateException("Timeout on blocking read for 5000000000 NANOSECONDS");
            }
            return 1;
        }, notifications::incrementAndGet, PERIOD);
        try {
            flaky.wake();
            await(() -> counts.get() >= 4, "the watcher counts again after a count that failed");
            assertTrue(flaky.running());

            digest.set(B);
            await(() -> notifications.get() == 1, "a change after the failed count is announced");
        } finally {
            flaky.close();
        }
    }

    @Test
    void theWatcherEndsWhenTheLastSubscriberLeavesAndAWakeStartsItAgain() throws InterruptedException {
        subscribers.set(1);
        subscriptions.wake();
        await(() -> assessments.get() >= 2, "watching");
        subscribers.set(0);
        await(() -> !subscriptions.running(), "the watcher ends without subscribers");
        int atEnd = assessments.get();
        Thread.sleep(PERIOD.toMillis() * 15);
        assertEquals(atEnd, assessments.get(), "no look once nobody is subscribed");

        subscribers.set(1);
        subscriptions.wake();
        assertTrue(subscriptions.running());
        await(() -> assessments.get() > atEnd + 2, "a new subscription starts a new watcher");
        subscriptions.close();
        await(() -> !subscriptions.running(), "close ends it");
    }

    @Test
    void aWakeLooksOnceForItsBaselineEvenBeforeTheSdkHasRecordedTheSessionThenStopsIfNoneCame()
            throws InterruptedException {
        // The mapper wakes the watcher just before the SDK records the session: the first look takes
        // the baseline without asking; a session that never came (a refused subscribe) ends it after.
        subscriptions.wake();
        await(() -> !subscriptions.running(), "no subscriber: the watcher ends");
        assertEquals(1, assessments.get(), "one look, the baseline");
        assertEquals(0, notifications.get());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(5), condition, what);
    }
}
