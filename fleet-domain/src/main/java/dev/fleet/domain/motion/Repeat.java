package dev.fleet.domain.motion;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The watching loop: a step every interval, measured from one start to the next (a slow step is
 * not followed by a full interval of sleep), until the step says it is done or the deadline passes.
 * At the deadline the step runs once more, so a caller always ends with a look taken then.
 */
public final class Repeat {

    /** How the loop waits; a test passes one that only advances its clock. */
    @FunctionalInterface
    public interface Pause {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final Duration interval;
    private final LongSupplier nanoTime;
    private final Pause pause;

    /**
     * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime})
     * @param pause how to wait ({@code d -> Thread.sleep(d.toMillis())})
     */
    public Repeat(Duration interval, LongSupplier nanoTime, Pause pause) {
        this.interval = Objects.requireNonNull(interval, "interval");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.pause = Objects.requireNonNull(pause, "pause");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
    }

    /**
     * Runs {@code step} now and then every interval.
     *
     * @param step returns true when the loop is done
     * @param timeout how long to go on, or null for as long as {@code step} wants
     * @return true when {@code step} ended the loop, false when the timeout did
     */
    public boolean until(BooleanSupplier step, Duration timeout) throws InterruptedException {
        long start = nanoTime.getAsLong();
        long deadline = timeout == null ? Long.MAX_VALUE : start + timeout.toNanos();
        long next = start;
        while (true) {
            if (step.getAsBoolean()) {
                return true;
            }
            long now = nanoTime.getAsLong();
            if (timeout != null && now - deadline >= 0) {
                return false;
            }
            next += interval.toNanos();
            if (next - now < 0) {
                next = now; // a step slower than the interval: the next one at once, never a burst of missed ones
            }
            long wake = timeout != null && next - deadline > 0 ? deadline : next;
            long wait = wake - now;
            if (wait > 0) {
                pause.sleep(Duration.ofNanos(wait));
            }
        }
    }
}
