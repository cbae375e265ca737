package dev.fleet.mcp;

import dev.fleet.domain.port.out.HeartbeatScheduler;
import java.time.Duration;
import java.util.Timer;
import java.util.TimerTask;
import java.util.function.BooleanSupplier;

/**
 * Heartbeats on a daemon {@link Timer}, as the CLI's scheduler runs them: a tick that throws does not end them.
 * Every period, whatever a tick says: these tests never take the registry away.
 */
final class TimerHeartbeats implements HeartbeatScheduler {

    @Override
    public Runnable schedule(BooleanSupplier tick, Duration period, Duration retry) {
        Timer timer = new Timer("test-heartbeat", true);
        long millis = Math.max(1, period.toMillis());
        timer.schedule(new TimerTask() {
            @Override
            public void run() {
                try {
                    tick.getAsBoolean();
                } catch (RuntimeException e) {
                    // the lifecycle logs its own failures; the timer must keep going
                }
            }
        }, millis, millis);
        return timer::cancel;
    }
}
