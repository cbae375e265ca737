package dev.fleet.domain.registration;

import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.in.OwnRegistrationUseCase;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import dev.fleet.domain.port.out.HeartbeatScheduler;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.MonotonicClock;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * This server's row in the runtime registry, from registration to stop (docs/CONTRACT.md): register right
 * after the transport is bound (the writer migrates the file first when it needs it), heartbeat
 * every period and register again when the row has vanished, mark the row stopped exactly once on
 * the way out. One runtime id serves the whole process: a server start is one instance. The writes
 * themselves, and the lock they share with the stop, are {@link OwnRow}'s.
 *
 * <p>Registry failures never stop the server: a failed registration is logged, kept for
 * {@code gitea_get_runtime_context} and retried on the next heartbeat (a registry locked for a
 * moment at start-up must not leave a healthy member unregistered until it restarts).
 *
 * <p>A stop is bounded whatever the registry does (the contract: gone within 2 s): it waits at most
 * {@link #STOP_DEADLINE} in all, on the {@link MonotonicClock}, first for a registration or
 * heartbeat still holding the lock (one that meets a locked registry can take its whole busy
 * timeout), then for its own write ({@link StopWrite}). Past the deadline it gives up and logs.
 *
 * <p>Tool calls that arrive before the first registration attempt has finished wait for it (at
 * most {@link #REGISTRATION_WAIT}), so a server never reports itself as a stray.
 */
public final class ServerLifecycleService implements ServerLifecycleUseCase, OwnRegistrationUseCase {

    /**
     * How soon a heartbeat or registration that failed is tried again (a period at most): once a registry that
     * was down is back, another host's readers would judge this row's lease lapsed until it is written (an audit
     * saw a gate open past a live remote member for a heartbeat's period).
     */
    public static final Duration HEARTBEAT_RETRY = Duration.ofSeconds(2);

    private final OwnRow row;
    private final InstantSource clock;
    private final MonotonicClock elapsed;
    private final HeartbeatScheduler scheduler;
    private final LifecycleLog log;
    private final Duration stopDeadline;
    private final StopWrite stopWrite;
    private final CountDownLatch stopFinished = new CountDownLatch(1);
    private volatile Runnable cancelHeartbeat;

    /**
     * @param identity what this server says about itself, its transport the one it serves
     * @param registry the write port: this service is its only user
     * @param clock the time registrations and heartbeats are stamped with
     * @param elapsed the clock the stop's deadline runs on
     * @param scheduler runs the heartbeat
     * @param log the operator log
     * @param observedStart this process's start as observers see it now, or null when unknown; when
     *     it moves by more than a second (a wall-clock step) the server registers again
     */
    public ServerLifecycleService(ServerIdentity identity, RegistryWriter registry, InstantSource clock,
            MonotonicClock elapsed, HeartbeatScheduler scheduler, LifecycleLog log, Supplier<Instant> observedStart) {
        this(identity, registry, clock, elapsed, scheduler, log, observedStart, () -> UUID.randomUUID().toString(),
                STOP_DEADLINE);
    }

    /** The seam tests use: chosen runtime ids and a shorter stop deadline. */
    ServerLifecycleService(ServerIdentity identity, RegistryWriter registry, InstantSource clock,
            MonotonicClock elapsed, HeartbeatScheduler scheduler, LifecycleLog log, Supplier<Instant> observedStart,
            Supplier<String> runtimeIds, Duration stopDeadline) {
        this.stopDeadline = Objects.requireNonNull(stopDeadline, "stopDeadline");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.elapsed = Objects.requireNonNull(elapsed, "elapsed");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.log = Objects.requireNonNull(log, "log");
        this.row = new OwnRow(Objects.requireNonNull(identity, "identity"),
                Objects.requireNonNull(runtimeIds, "runtimeIds").get(), Objects.requireNonNull(registry, "registry"),
                clock, log, Objects.requireNonNull(observedStart, "observedStart"));
        this.stopWrite = new StopWrite(registry, log, stopDeadline);
    }

    @Override
    public RegistrationState start(Duration heartbeatPeriod, String endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        row.listenOn(endpoint);
        return start(heartbeatPeriod);
    }

    @Override
    public RegistrationState start(Duration heartbeatPeriod) {
        Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat period must be positive, got " + heartbeatPeriod);
        }
        // Registering and scheduling under the write lock: a stop either comes first (nothing is
        // scheduled) or finds the heartbeat scheduled and cancels it.
        row.writes().lock();
        try {
            RegistrationState registered = row.register();
            if (!row.stopping() && cancelHeartbeat == null) {
                cancelHeartbeat = scheduler.schedule(row::heartbeatWritten, heartbeatPeriod, HEARTBEAT_RETRY);
            }
            return registered;
        } finally {
            row.writes().unlock();
        }
    }

    @Override
    public void stop() {
        Deadline deadline = Deadline.after(elapsed, stopDeadline);
        if (!row.raiseStop()) {
            deadline.await(stopFinished);
            return;
        }
        log.info("stopping: marking this server's row stopped, if it has one (giving up after "
                + stopDeadline.toMillis() + " ms)");
        try {
            Runnable cancel = cancelHeartbeat;
            if (cancel != null) {
                cancel.run();
            }
            if (!deadline.lock(row.writes())) {
                log.error(row.state() instanceof RegistrationState.Registered
                        ? "could not mark this server stopped within " + stopDeadline.toMillis() + " ms: a heartbeat "
                                + "still waits for the registry (locked by another process?); exiting anyway, the row "
                                + "stays running and reads as process_exited once this process has gone"
                        : "exiting before this server's registration finished (within " + stopDeadline.toMillis()
                                + " ms it still waited for the registry: its first migration, or a lock another process "
                                + "holds); no row is left running, unless that write ends in the instant this process "
                                + "exits, and such a row reads as process_exited");
                return;
            }
            try {
                if (row.state() instanceof RegistrationState.Registered registered) {
                    Instant now = clock.instant();
                    if (stopWrite.markStopped(registered.registration(), now, deadline)) {
                        row.markedStopped(registered.registration(), now);
                    }
                }
            } finally {
                row.writes().unlock();
            }
        } finally {
            stopFinished.countDown();
        }
    }

    @Override
    public boolean awaitRegistrationAttempt(Duration max) {
        try {
            return row.firstAttempt().await(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public RegistrationState state() {
        return row.state();
    }

    @Override
    public ServerIdentity identity() {
        return row.identity();
    }
}
