package dev.fleet.cli.serve;

import dev.fleet.domain.port.out.HeartbeatScheduler;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread per server: a heartbeat must never keep the JVM alive, and must never stop
 * because a tick threw (a scheduled executor silently cancels a task that throws). Fixed delay, not
 * fixed rate: ticks missed while the registry was busy are not fired back to back afterwards.
 */
public final class DaemonHeartbeatScheduler implements HeartbeatScheduler {

    @Override
    public Runnable schedule(Runnable tick, Duration period) {
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
    }
}
