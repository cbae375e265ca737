package dev.fleet.domain.registration;

import dev.fleet.domain.Failures;
import dev.fleet.domain.Registration;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The stop write, on its own daemon thread so that the stop can give up at its deadline: a registry
 * held by another process makes the write wait out its busy timeout (and a schema check before
 * it), which no caller with a 2 s exit bound can afford. Abandoned, the row stays {@code running}
 * and reads as {@code process_exited} once this process has gone, which is safe.
 *
 * @param budget the stop's whole bound, as the operator log names it
 */
record StopWrite(RegistryWriter registry, LifecycleLog log, Duration budget) {

    /** Marks {@code row} stopped at {@code now} unless {@code deadline} passes first; true when the row was marked. */
    boolean markStopped(Registration row, Instant now, Deadline deadline) {
        CompletableFuture<Boolean> write = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                write.complete(registry.markStopped(row.runtimeId(), now));
            } catch (Throwable e) {
                write.completeExceptionally(e);
            }
        }, "fleet-lifecycle-stop");
        writer.setDaemon(true);
        writer.start();
        try {
            if (deadline.get(write)) {
                log.info("marked runtime " + row.runtimeId() + " stopped");
                return true;
            }
            log.warn("registry row " + row.runtimeId() + " was already gone when stopping");
        } catch (TimeoutException e) {
            log.error("could not mark runtime " + row.runtimeId() + " stopped within " + budget.toMillis()
                    + " ms (registry busy); exiting anyway, the row stays running and reads as process_exited "
                    + "once this process has gone");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            log.error("could not mark runtime " + row.runtimeId() + " stopped: "
                    + (cause instanceof RuntimeException runtime ? Failures.oneLine(runtime) : String.valueOf(cause)));
        }
        return false;
    }
}
