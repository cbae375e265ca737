package dev.fleet.mcp;

import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * The 2026-07-28 era's subscribers to {@value VerdictResource#URI}: each open
 * {@code subscriptions/listen} that was granted the resource holds one {@link #changes()} stream
 * while it lives. Unlike the 2025 era's subscriptions, which the SDK keeps per session and this
 * server must ask about ({@link SubscriberProbe}), a listen is one request in flight, so it is
 * counted here as it opens and ends. {@link VerdictSubscriptions} reads {@link #open()} beside the
 * 2025 count: one background assessment serves both eras, and only while someone listens.
 */
public final class VerdictListens implements AutoCloseable {

    private final Sinks.Many<Boolean> changes = Sinks.many().multicast().directBestEffort();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final AtomicInteger open = new AtomicInteger();
    private volatile Runnable wake = () -> {
    };
    private volatile Ready ready = () -> {
    };

    /**
     * What runs when a listen opens: the watcher starts, if none runs yet; and what {@link #ready()}
     * waits for: its baseline.
     */
    void onOpen(Runnable wakeWatcher, Ready baseline) {
        wake = wakeWatcher;
        ready = baseline;
    }

    /**
     * Starts the watcher and waits (bounded) for its first look, so that every change after this
     * returns is announced: a listen is acknowledged after it. Blocks.
     */
    public void ready() throws InterruptedException {
        wake.run();
        ready.await();
    }

    /** A bounded wait for the watcher's baseline. */
    @FunctionalInterface
    interface Ready {
        void await() throws InterruptedException;
    }

    /**
     * {@code listen} counted as open for its whole life, from before it is subscribed (before its
     * acknowledgement is sent) until it ends: the watcher that finds no listen open stops, and a new one
     * takes a new baseline, so a listen counted only once acknowledged could miss a change made at once.
     */
    public <T> Flux<T> counted(Flux<T> listen) {
        return Flux.defer(() -> {
            open.incrementAndGet(); // before the wake: the watcher's tick must see it
            wake.run();
            return listen;
        }).doFinally(signal -> open.decrementAndGet());
    }

    /**
     * One tick for each change of the verdict's digest, for one listen, until the client cancels it
     * (its {@code notifications/cancelled}, a closed HTTP stream) or this is {@link #close() closed};
     * a listen is {@link #counted} for as long.
     */
    public Flux<Boolean> changes() {
        return changes.asFlux().takeUntilOther(closed.asMono());
    }

    /** Completes every listen, the server closing: each then ends with its graceful result. */
    public Flux<Void> closing() {
        return closed.asMono().flux();
    }

    /** Listens open now: what the watcher counts beside the 2025 era's subscriptions. */
    public int open() {
        return open.get();
    }

    /** The digest changed: every open listen is told. */
    void announce() {
        Sinks.EmitResult result;
        while ((result = changes.tryEmitNext(Boolean.TRUE)) == Sinks.EmitResult.FAIL_NON_SERIALIZED) {
            Thread.onSpinWait(); // another thread emits at this instant; one tick follows the other
        }
    }

    @Override
    public void close() {
        closed.tryEmitEmpty();
    }
}
