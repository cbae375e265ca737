package dev.fleet.domain.lifecycle;

import dev.fleet.domain.port.out.Clock;
import java.time.Duration;
import java.time.Instant;

/** A fake of the domain's {@link Clock} port: it says what the test tells it. */
public final class FixedClock implements Clock {

    private Instant now;

    public FixedClock(Instant now) {
        this.now = now;
    }

    @Override
    public synchronized Instant now() {
        return now;
    }

    public synchronized void advance(Duration by) {
        now = now.plus(by);
    }
}
