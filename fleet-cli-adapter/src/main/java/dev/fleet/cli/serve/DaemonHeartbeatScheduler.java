package dev.fleet.cli.serve;

import dev.fleet.domain.port.out.HeartbeatScheduler;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One daemon thread per server: a heartbeat must never keep the JVM alive, and must never stop
 * because a tick threw (a scheduled executor silently cancels a task that throws). Each tick is
 * scheduled when the one before has ended, a period later, or sooner after one whose write failed (backing off
 * to the period while failures go on):
 * ticks missed while the registry was busy are not fired back to back afterwards.
 */
public final class DaemonHeartbeatScheduler implements HeartbeatScheduler {

    @Override
    public Runnable schedule(BooleanSupplier tick, Duration period, Duration retry) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fleet-mcp-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        long periodMillis = Math.max(1, period.toMillis());
        long retryMillis = Math.max(1, Math.min(periodMillis, retry.toMillis()));
        new Runnable() {
            /** The wait after the next failed tick: the retry, doubled after each failure in a row, a period at most. */
            private long backoff = retryMillis;

            @Override
            public void run() {
                boolean written = false;
                try {
                    written = tick.getAsBoolean();
                } catch (VirtualMachineError fatal) {
                    throw fatal;
                } catch (Throwable e) {
                    // Already logged by the lifecycle; swallowing keeps the schedule alive.
                }
                if (written) {
                    backoff = retryMillis;
                    next(periodMillis);
                } else {
                    // A failure that does not clear (a role that may not write) is tried ever less often.
                    next(backoff);
                    backoff = Math.min(periodMillis, backoff * 2);
                }
            }

            void next(long millis) {
                try {
                    executor.schedule(this, millis, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException stopped) {
                    // stopped meanwhile: no more ticks
                }
            }
        }.next(periodMillis);
        return executor::shutdownNow;
    }
}
