package dev.fleet.mcp;

import dev.fleet.domain.motion.DigestChange;
import dev.fleet.domain.motion.Repeat;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is told when {@value VerdictResource#URI} changes, and the only background assessment a
 * server ever makes. Nothing runs until a client subscribes ({@link #wake}); then one daemon thread
 * assesses every second, notifies when the digest differs from the last one it saw (never for the
 * first look, the baseline), and ends as soon as no session is subscribed any more (an
 * unsubscribe, a closed session). The SDK keeps the subscriptions, per session; this class only asks
 * how many there are ({@code subscribers}), once a tick.
 *
 * <p>Races: the SDK records a subscription only after it is acknowledged, which waits for the watcher's
 * baseline ({@link #subscribed}), and a session may subscribe just as the thread finds none: the thread
 * keeps going while a subscription acknowledged may still be unrecorded (a first look slower than a
 * period makes the second one at once), a wake since the tick began keeps it going, and a wake after it
 * stopped starts a new one, so no subscription is ever left without a watcher.
 */
final class VerdictSubscriptions implements AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(1);
    /** How long an acknowledgement waits for the watcher's first look: one assessment, five periods on a loaded host. */
    static final Duration BASELINE_WAIT = PERIOD.multipliedBy(5);
    private static final Logger LOG = LoggerFactory.getLogger(VerdictSubscriptions.class);

    private final Supplier<String> digest;
    private final IntSupplier subscribers;
    private final Runnable notifier;
    private final Duration period;
    private boolean running;
    /** Whether the running watcher has taken its first look, the baseline later looks are compared with. */
    private boolean baselined;
    private boolean woken;
    private boolean closed;
    /** Until when ({@link System#nanoTime}) a subscription just acknowledged may still be unrecorded by the SDK. */
    private long recordedBy = System.nanoTime();

    /**
     * @param digest assesses the fleet now and gives the verdict's digest
     * @param subscribers how many sessions are subscribed to the resource now
     * @param notifier sends {@code notifications/resources/updated} to them
     */
    VerdictSubscriptions(Supplier<String> digest, IntSupplier subscribers, Runnable notifier, Duration period) {
        this.digest = Objects.requireNonNull(digest, "digest");
        this.subscribers = Objects.requireNonNull(subscribers, "subscribers");
        this.notifier = Objects.requireNonNull(notifier, "notifier");
        this.period = Objects.requireNonNull(period, "period");
    }

    /** A client asked to subscribe: watch, if nothing does yet. */
    synchronized void wake() {
        woken = true;
        if (running || closed) {
            return;
        }
        running = true;
        baselined = false;
        Thread watcher = new Thread(this::watch, "fleet-verdict-subscriptions");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * A 2025 subscription came ({@code resources/subscribe}): wakes the watcher and waits, at most {@code max}, for
     * its baseline, so that the subscription is acknowledged only once a change after it will be seen. Answered at
     * once, a change the client made on the acknowledgement could become the baseline and never be announced (the
     * motion audit's find). An interrupt ends the wait and is kept.
     */
    void subscribed(Duration max) {
        synchronized (this) {
            // The SDK records the subscription only after this returns: until then it counts none, and a
            // watcher that stopped on that count would leave the subscription unwatched for good.
            recordedBy = Math.max(recordedBy, System.nanoTime() + max.toNanos() + period.multipliedBy(2).toNanos());
        }
        wake();
        try {
            awaitBaseline(max);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits, at most {@code max}, until the running watcher has its baseline: a change after this
     * returns is one the watcher will see. A 2026-07-28 listen is acknowledged only then, so a change
     * the client makes after the acknowledgement is announced, as a 2025 subscription is ({@link #subscribed}).
     */
    synchronized void awaitBaseline(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (long left = max.toNanos(); running && !baselined && !closed && left > 0;
                left = deadline - System.nanoTime()) {
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Whether the watching thread runs now (tests). */
    synchronized boolean running() {
        return running;
    }

    @Override
    public synchronized void close() {
        closed = true;
        notifyAll(); // an acknowledgement waiting for the baseline goes out now
    }

    private void watch() {
        DigestChange change = new DigestChange();
        try {
            new Repeat(period, System::nanoTime, pause -> Thread.sleep(Math.max(1, pause.toMillis())))
                    .until(() -> tick(change), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            synchronized (this) {
                running = false;
                notifyAll();
            }
        }
    }

    /** One look; true when the thread should end (nobody subscribed, or the server closing). */
    private boolean tick(DigestChange change) {
        boolean fresh;
        synchronized (this) {
            fresh = woken;
            woken = false;
        }
        if (!fresh && nobodySubscribed() && stopUnlessWoken()) {
            return true;
        }
        synchronized (this) {
            if (closed) {
                running = false;
                notifyAll();
                return true;
            }
        }
        try {
            boolean baseline = !change.hasBaseline();
            if (change.isChange(digest.get()) && !baseline) {
                notifier.run();
            }
            if (baseline) {
                synchronized (this) {
                    baselined = true;
                    notifyAll();
                }
            }
        } catch (RuntimeException e) {
            // A failed look is no change; the next tick looks again.
            LOG.warn("watching {} for its subscribers: {}", VerdictResource.URI, e.toString());
        }
        return false;
    }

    /**
     * Whether the SDK counts no subscribed session. A count that fails (the SDK's wait timed out on a starved
     * host, say) says nothing of who is subscribed: the watcher goes on, and a thread that ended on it would
     * leave every subscription of this server unannounced for good.
     */
    private boolean nobodySubscribed() {
        try {
            return subscribers.getAsInt() == 0;
        } catch (RuntimeException e) {
            LOG.warn("counting the subscribers of {}: {}", VerdictResource.URI, e.toString());
            return false;
        }
    }

    private synchronized boolean stopUnlessWoken() {
        if ((woken || System.nanoTime() - recordedBy < 0) && !closed) {
            return false;
        }
        running = false;
        notifyAll(); // nothing will take a baseline: an acknowledgement waiting for one goes out now
        return true;
    }
}
