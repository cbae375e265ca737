package dev.fleet.domain.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** An {@link InstantSource} that says what the test tells it. */
public final class FixedClock implements InstantSource {

    private Instant now;

    public FixedClock(Instant now) {
        this.now = now;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    public synchronized void advance(Duration by) {
        now = now.plus(by);
    }
}
