package dev.fleet.domain.port.out;

/**
 * Elapsed time for deadlines, which a wall-clock step must not move: the lifecycle's stop is
 * bounded by one. The composition root passes the system's ({@code System::nanoTime}); tests can
 * pass their own. Registrations and heartbeats are stamped with an {@link java.time.InstantSource}.
 */
@FunctionalInterface
public interface MonotonicClock {

    /** Nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    long nanoTime();
}
