package dev.fleet.observer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many fd links one look may still read, per process and in all: one {@code readlink} per fd is the cost of
 * {@code fleet host}'s look, and a hostile host may hold millions. Shared by the look's two workers.
 */
final class Budget {

    private final int perProcess;
    private final AtomicLong remaining;

    Budget(int perProcess, long total) {
        this.perProcess = perProcess;
        this.remaining = new AtomicLong(total);
    }

    /** Takes one link for a process that has read {@code readSoFar}; false (nothing taken) when a bound is met. */
    boolean take(int readSoFar) {
        if (readSoFar >= perProcess) {
            return false;
        }
        return remaining.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
    }
}
