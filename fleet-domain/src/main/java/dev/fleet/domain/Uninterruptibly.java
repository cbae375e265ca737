package dev.fleet.domain;

import java.util.concurrent.CountDownLatch;

/**
 * The one wait an interrupt cannot cut short: a server that must keep its exit deadline, or wait
 * for its client to go, remembers an interrupt and restores it afterwards rather than obeying it.
 * Pure JDK concurrency, so the domain and the adapters share it.
 */
public final class Uninterruptibly {

    /** A blocking call that may be interrupted; it is called again after an interrupt. */
    @FunctionalInterface
    public interface Wait<T> {
        T await() throws InterruptedException;
    }

    private Uninterruptibly() {
    }

    /**
     * Calls {@code wait} until it returns, calling it again after each interrupt; the thread's
     * interrupt flag is set again afterwards when one arrived. A bounded wait computes its remaining
     * time inside {@code wait}, so a retry keeps the original deadline.
     */
    public static <T> T await(Wait<T> wait) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until {@code latch} reaches zero, however often the thread is interrupted. */
    public static void await(CountDownLatch latch) {
        await(() -> {
            latch.await();
            return null;
        });
    }
}
