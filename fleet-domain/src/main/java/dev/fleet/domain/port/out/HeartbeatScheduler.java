package dev.fleet.domain.port.out;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Runs a server's heartbeat tick every period: the timer is infrastructure, so the lifecycle asks
 * for one here, and tests drive ticks by hand instead of waiting on a clock.
 */
@FunctionalInterface
public interface HeartbeatScheduler {

    /**
     * Starts calling {@code tick} every {@code period} (first call after one period); returns how to stop. A
     * tick that says its write did not go through (false) is followed by the next after {@code retry} (when
     * shorter): a registry that was down hears from the server soon after it is back, not a whole period
     * later, while another host's readers would judge the row's lease lapsed.
     */
    Runnable schedule(BooleanSupplier tick, Duration period, Duration retry);

    /** As {@link #schedule(BooleanSupplier, Duration, Duration)}, for a tick with no write to retry: every period. */
    default Runnable schedule(Runnable tick, Duration period) {
        return schedule(() -> {
            tick.run();
            return true;
        }, period, period);
    }
}
