package dev.fleet.domain.registration;

import dev.fleet.domain.Uninterruptibly;
import dev.fleet.domain.port.out.MonotonicClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;

/**
 * A point on the monotonic clock that every wait of one stop shares: waits that an interrupt cannot
 * cut short (a stop must keep its bound), each for the time left, not for a fresh period.
 */
final class Deadline {

    private final MonotonicClock clock;
    private final long at;

    private Deadline(MonotonicClock clock, long at) {
        this.clock = clock;
        this.at = at;
    }

    static Deadline after(MonotonicClock clock, Duration budget) {
        return new Deadline(clock, clock.nanoTime() + budget.toNanos());
    }

    private long remainingNanos() {
        return Math.max(0, at - clock.nanoTime());
    }

    /** Waits for {@code latch} until the deadline; false when it passed first. */
    boolean await(CountDownLatch latch) {
        return Uninterruptibly.await(() -> latch.await(remainingNanos(), TimeUnit.NANOSECONDS));
    }

    /** Takes {@code lock} unless the deadline passes first; false then. */
    boolean lock(Lock lock) {
        return Uninterruptibly.await(() -> lock.tryLock(remainingNanos(), TimeUnit.NANOSECONDS));
    }

    /**
     * {@code future}'s value, waited for until the deadline.
     *
     * @throws TimeoutException when the deadline passed first
     * @throws ExecutionException when the computation failed
     */
    <T> T get(CompletableFuture<T> future) throws TimeoutException, ExecutionException {
        Outcome<T> outcome = Uninterruptibly.await(() -> {
            try {
                return new Outcome<>(future.get(remainingNanos(), TimeUnit.NANOSECONDS), null);
            } catch (TimeoutException | ExecutionException e) {
                return new Outcome<>(null, e);
            }
        });
        if (outcome.failure() instanceof TimeoutException timeout) {
            throw timeout;
        }
        if (outcome.failure() instanceof ExecutionException failed) {
            throw failed;
        }
        return outcome.value();
    }

    private record Outcome<T>(T value, Exception failure) {
    }
}
