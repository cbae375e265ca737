package dev.fleet.mcp;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the heartbeat tick every period. A seam so lifecycle tests drive ticks by hand instead of
 * waiting on a clock.
 */
@FunctionalInterface
public interface HeartbeatScheduler {

    /** Starts calling {@code tick} every {@code period} (first call after one period); returns how to stop. */
    Runnable schedule(Runnable tick, Duration period);

    /**
     * One daemon thread: a heartbeat must never keep the JVM alive, and must never stop because a
     * tick threw (a scheduled executor silently cancels a task that throws). Fixed delay, not fixed
     * rate: ticks missed while the registry was busy are not fired back to back afterwards.
     */
    static HeartbeatScheduler daemonThread() {
        return (tick, period) -> {
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "fleet-mcp-heartbeat");
                thread.setDaemon(true);
                return thread;
            });
            long millis = Math.max(1, period.toMillis());
            executor.scheduleWithFixedDelay(() -> {
                try {
                    tick.run();
                } catch (VirtualMachineError fatal) {
                    throw fatal;
                } catch (Throwable e) {
                    // Already logged by the lifecycle; swallowing keeps the schedule alive.
                }
            }, millis, millis, TimeUnit.MILLISECONDS);
            return executor::shutdownNow;
        };
    }
}
