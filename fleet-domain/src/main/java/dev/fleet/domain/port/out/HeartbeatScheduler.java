package dev.fleet.domain.port.out;

import java.time.Duration;

/**
 * Runs a server's heartbeat tick every period: the timer is infrastructure, so the lifecycle asks
 * for one here, and tests drive ticks by hand instead of waiting on a clock.
 */
@FunctionalInterface
public interface HeartbeatScheduler {

    /** Starts calling {@code tick} every {@code period} (first call after one period); returns how to stop. */
    Runnable schedule(Runnable tick, Duration period);
}
