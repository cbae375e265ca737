package dev.fleet.domain.lifecycle;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import dev.fleet.domain.port.out.HeartbeatScheduler;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * This server's row in the runtime registry, from registration to stop (docs/CONTRACT.md): register right
 * after the transport is bound (the writer migrates the file first when it needs it), heartbeat
 * every period and register again when the row has vanished, mark the row stopped exactly once on
 * the way out. One runtime id serves the whole process: a server start is one instance.
 *
 * <p>Registry failures never stop the server: a failed registration is logged, kept for
 * {@code gitea_get_runtime_context} and retried on the next heartbeat (a registry locked for a
 * moment at start-up must not leave a healthy member unregistered until it restarts).
 *
 * <p>Every registry write happens under one lock, and a stop first raises a flag that every later
 * registration and heartbeat checks under that lock, so a heartbeat can never re-register a server
 * that has just been marked stopped.
 *
 * <p>A stop is bounded whatever the registry does (the contract: gone within 2 s): it waits at most
 * {@link #STOP_DEADLINE} in all, first for a registration or heartbeat still holding the lock (one
 * that meets a locked registry can take its whole busy timeout), then for its own write. Past the
 * deadline it gives up and logs: the row stays {@code running} and reads as {@code process_exited}
 * once this process has gone, which is safe.
 *
 * <p>Tool calls that arrive before the first registration attempt has finished wait for it (at
 * most {@link #REGISTRATION_WAIT}), so a server never reports itself as a stray.
 */
public final class ServerLifecycleService implements ServerLifecycleUseCase {

    /**
     * The longest {@link #stop()} takes, waiting for the lock and writing together. the contract wants the
     * process gone within 2 s; after the stop come the MCP session's close (at most 300 ms) and the
     * JVM's exit, which waits up to 300 ms more for threads still in native code (a registry write
     * sleeping in SQLite's busy handler is one). An unhindered stop write takes milliseconds.
     */
    public static final Duration STOP_DEADLINE = Duration.ofMillis(750);

    /** How long a tool call waits for this server's first registration attempt (docs/CONTRACT.md). */
    public static final Duration REGISTRATION_WAIT = Duration.ofSeconds(5);

    /** Replaced only when the observed start of this process moves (see {@link #heartbeat()}). */
    private volatile ServerIdentity identity;
    private final RegistryWriter registry;
    private final InstantSource clock;
    private final String runtimeId;
    private final HeartbeatScheduler scheduler;
    private final Supplier<Instant> observedStart;
    private final LifecycleLog log;

    private final Duration stopDeadline;

    /** Held by every registry write: registration, heartbeat and stop. */
    private final ReentrantLock writes = new ReentrantLock();
    /** Raised once, by the first stop, before it waits for {@link #writes}. */
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private final CountDownLatch stopFinished = new CountDownLatch(1);

    private volatile RegistrationState state = new RegistrationState.Pending();
    private volatile Runnable cancelHeartbeat;

    /**
     * @param identity what this server says about itself, its transport the one it serves
     * @param registry the write port: this service is its only user
     * @param clock the time registrations and heartbeats are stamped with
     * @param scheduler runs the heartbeat
     * @param log the operator log
     * @param observedStart this process's start as observers see it now, or null when unknown; when
     *     it moves by more than a second (a wall-clock step) the server registers again
     */
    public ServerLifecycleService(ServerIdentity identity, RegistryWriter registry, InstantSource clock,
            HeartbeatScheduler scheduler, LifecycleLog log, Supplier<Instant> observedStart) {
        this(identity, registry, clock, scheduler, log, observedStart, () -> UUID.randomUUID().toString(),
                STOP_DEADLINE);
    }

    /** The seam tests use: chosen runtime ids and a shorter stop deadline. */
    ServerLifecycleService(ServerIdentity identity, RegistryWriter registry, InstantSource clock,
            HeartbeatScheduler scheduler, LifecycleLog log, Supplier<Instant> observedStart,
            Supplier<String> runtimeIds, Duration stopDeadline) {
        this.stopDeadline = Objects.requireNonNull(stopDeadline, "stopDeadline");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.runtimeId = Objects.requireNonNull(runtimeIds, "runtimeIds").get();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.log = Objects.requireNonNull(log, "log");
        this.observedStart = Objects.requireNonNull(observedStart, "observedStart");
    }

    @Override
    public RegistrationState start(Duration heartbeatPeriod, String endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        identity = identity.withEndpoint(endpoint);
        return start(heartbeatPeriod);
    }

    /** Registers, then heartbeats every {@code heartbeatPeriod}. Call once the transport is bound. Never throws. */
    @Override
    public RegistrationState start(Duration heartbeatPeriod) {
        Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat period must be positive, got " + heartbeatPeriod);
        }
        writes.lock();
        try {
            RegistrationState registered = register();
            if (!stopping.get() && cancelHeartbeat == null) {
                cancelHeartbeat = scheduler.schedule(this::heartbeat, heartbeatPeriod);
            }
            return registered;
        } finally {
            writes.unlock();
        }
    }

    /**
     * Stores this server's registration, registered now. Only a missing or outdated registry is
     * migrated (by the writer): running the changelog on every start would queue servers that start
     * together behind one another. Never throws.
     */
    RegistrationState register() {
        writes.lock();
        try {
            if (stopping.get()) {
                return state;
            }
            Instant now = clock.instant();
            try {
                Registration stored = registry.register(identity.runningRegistration(runtimeId, now),
                        Optional.of(RegistryWriter.DEFAULT_RETENTION));
                state = new RegistrationState.Registered(stored);
                log.info("registered as runtime " + runtimeId + " (namespace " + identity.namespace() + ", profile "
                        + identity.profile() + ", pid " + identity.pid() + ", transport "
                        + identity.transport().code() + ")");
            } catch (RuntimeException e) {
                state = new RegistrationState.Failed(runtimeId, describe(e), now);
                log.error("registration failed, serving anyway (assessments will list this process as "
                        + "unregistered; retrying at the next heartbeat): " + describe(e));
            }
            return state;
        } finally {
            writes.unlock();
            firstAttempt.countDown();
        }
    }

    /**
     * Waits until the first registration attempt has finished (registered or failed), or this
     * server is stopping, for at most {@code max}. Tool calls wait here so that a call arriving right
     * after {@code initialize} never sees this server as unregistered. Never throws.
     *
     * @return true when the attempt has finished (or no attempt will be made), false on timeout
     */
    @Override
    public boolean awaitRegistrationAttempt(Duration max) {
        try {
            return firstAttempt.await(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * One heartbeat: advances {@code last_heartbeat_at}; registers afresh when the row is gone (for
     * instance pruned, or deleted by hand) or when the last registration failed. Never throws.
     */
    @Override
    public RegistrationState heartbeat() {
        // The process table is read before taking the lock: a stop must not wait behind that scan.
        Instant observed = state instanceof RegistrationState.Registered && !stopping.get() ? observedStart() : null;
        writes.lock();
        try {
            return heartbeatLocked(observed);
        } finally {
            writes.unlock();
        }
    }

    private RegistrationState heartbeatLocked(Instant observedStart) {
        if (stopping.get()) {
            return state;
        }
        RegistrationState current = state;
        if (current instanceof RegistrationState.Registered && startHasMoved(observedStart)) {
            return register();
        }
        if (current instanceof RegistrationState.Registered registered) {
            Registration row = registered.registration();
            Instant now = clock.instant();
            try {
                if (registry.heartbeat(row.runtimeId(), now)) {
                    state = new RegistrationState.Registered(row.withLastHeartbeatAt(now));
                } else {
                    log.warn("registry row " + row.runtimeId() + " is gone; registering again");
                    register();
                }
            } catch (RuntimeException e) {
                // The row is still ours; a lock or I/O hiccup is retried at the next tick.
                log.warn("heartbeat for " + row.runtimeId() + " failed: " + describe(e));
            }
        } else if (current instanceof RegistrationState.Failed) {
            register();
        }
        return state;
    }

    /**
     * Observers compute a process's start from the boot time, which moves with the wall clock: after
     * a clock step, every assessment would read this server's row as a recycled pid. The server
     * notices it here and registers again with the start observers now see.
     */
    /** This process's start as observers see it now; null when unknown or unreadable. */
    private Instant observedStart() {
        try {
            return observedStart.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private boolean startHasMoved(Instant observed) {
        Instant recorded = identity.processStartedAt();
        if (recorded == null || observed == null || !ObservedProcess.startsDisagree(recorded, observed)) {
            return false;
        }
        log.warn("this process's start now reads " + observed + " instead of " + recorded
                + " (the wall clock stepped); registering again");
        identity = identity.withProcessStartedAt(observed);
        return true;
    }

    /**
     * Stops heartbeating and marks the row stopped, within {@link #STOP_DEADLINE} whatever the
     * registry does. Idempotent: only the first call writes; a concurrent second call (the shutdown
     * hook while an EOF stop is under way) waits for the first, within the same bound. Never throws.
     */
    @Override
    public void stop() {
        long deadline = System.nanoTime() + stopDeadline.toNanos();
        if (!stopping.compareAndSet(false, true)) {
            awaitUntil(stopFinished, deadline);
            return;
        }
        log.info("stopping: marking this server's row stopped, if it has one (giving up after "
                + stopDeadline.toMillis() + " ms)");
        try {
            Runnable cancel = cancelHeartbeat;
            if (cancel != null) {
                cancel.run();
            }
            firstAttempt.countDown(); // no tool call waits for a registration that will not come
            if (!lockUntil(deadline)) {
                log.error("could not mark this server stopped within " + stopDeadline.toMillis() + " ms: a registration "
                        + "or heartbeat still waits for the registry (locked by another process?); exiting anyway, "
                        + "the row stays running and reads as process_exited once this process has gone");
                return;
            }
            try {
                if (state instanceof RegistrationState.Registered registered) {
                    markStoppedUntil(registered.registration(), deadline);
                }
            } finally {
                writes.unlock();
            }
        } finally {
            stopFinished.countDown();
        }
    }

    /**
     * The stop write, on its own daemon thread so that the caller can give up at the deadline: a
     * registry held by another process makes the write wait out its busy timeout (and a schema check
     * before it), which no caller with a 2 s exit bound can afford.
     */
    private void markStoppedUntil(Registration row, long deadline) {
        Instant now = clock.instant();
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
            if (getUntil(write, deadline)) {
                state = new RegistrationState.Registered(row.withStatus(RegistrationStatus.STOPPED, now));
                log.info("marked runtime " + row.runtimeId() + " stopped");
            } else {
                log.warn("registry row " + row.runtimeId() + " was already gone when stopping");
            }
        } catch (TimeoutException e) {
            log.error("could not mark runtime " + row.runtimeId() + " stopped within " + stopDeadline.toMillis()
                    + " ms (registry busy); exiting anyway, the row stays running and reads as process_exited "
                    + "once this process has gone");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            log.error("could not mark runtime " + row.runtimeId() + " stopped: "
                    + (cause instanceof RuntimeException runtime ? describe(runtime) : String.valueOf(cause)));
        }
    }

    private boolean lockUntil(long deadline) {
        return untilDeadline(deadline, nanos -> writes.tryLock(nanos, TimeUnit.NANOSECONDS));
    }

    private static <T> T getUntil(CompletableFuture<T> future, long deadline)
            throws TimeoutException, ExecutionException {
        try {
            return untilDeadline(deadline, nanos -> {
                try {
                    return future.get(nanos, TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    throw new CompletionException(e);
                }
            });
        } catch (CompletionException e) {
            if (e.getCause() instanceof TimeoutException timeout) {
                throw timeout;
            }
            throw (ExecutionException) e.getCause();
        }
    }

    private static void awaitUntil(CountDownLatch latch, long deadline) {
        untilDeadline(deadline, nanos -> latch.await(nanos, TimeUnit.NANOSECONDS));
    }

    /**
     * One bounded wait that an interrupt cannot cut short: a stop must keep its deadline, so an
     * interrupt is remembered and restored afterwards rather than obeyed.
     */
    private static <T> T untilDeadline(long deadline, TimedWait<T> wait) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.await(Math.max(0, deadline - System.nanoTime()));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @FunctionalInterface
    private interface TimedWait<T> {
        T await(long nanos) throws InterruptedException;
    }

    @Override
    public RegistrationState state() {
        return state;
    }

    @Override
    public ServerIdentity identity() {
        return identity;
    }

    @Override
    public boolean isStopped() {
        return stopping.get();
    }


    private static String describe(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
