package dev.fleet.mcp;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.port.out.Clock;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's row in the runtime registry, from registration to stop (SPEC §7): register right
 * after the transport is bound (the writer migrates the file first when it needs it), heartbeat
 * every period and register again when the row has vanished, mark the row stopped exactly once on
 * the way out. One runtime id serves the whole process: a server start is one instance.
 *
 * <p>Registry failures never stop the server: a failed registration is logged, kept for
 * {@code gitea_get_runtime_context} and retried on the next heartbeat (a registry locked for a
 * moment at start-up must not leave a healthy member unregistered until it restarts).
 *
 * <p>Every registry call happens under this object's lock, so a heartbeat can never re-register a
 * server that has just been marked stopped.
 */
public final class ServerLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ServerLifecycle.class);

    /** Replaced only when the observed start of this process moves (see {@link #heartbeat()}). */
    private volatile ServerIdentity identity;
    private final RegistryWriter registry;
    private final Clock clock;
    private final String runtimeId;
    private final HeartbeatScheduler scheduler;
    private final Supplier<Instant> observedStart;

    private volatile RegistrationState state = new RegistrationState.Pending();
    private boolean stopped;
    private Runnable cancelHeartbeat;

    public ServerLifecycle(ServerIdentity identity, RegistryWriter registry, Clock clock) {
        this(identity, registry, clock, () -> null);
    }

    /** @param observedStart this process's start as observers see it now, or null when unknown */
    public ServerLifecycle(ServerIdentity identity, RegistryWriter registry, Clock clock,
            Supplier<Instant> observedStart) {
        this(identity, registry, clock, () -> UUID.randomUUID().toString(), HeartbeatScheduler.daemonThread(),
                observedStart);
    }

    public ServerLifecycle(ServerIdentity identity, RegistryWriter registry, Clock clock,
            Supplier<String> runtimeIds, HeartbeatScheduler scheduler) {
        this(identity, registry, clock, runtimeIds, scheduler, () -> null);
    }

    public ServerLifecycle(ServerIdentity identity, RegistryWriter registry, Clock clock,
            Supplier<String> runtimeIds, HeartbeatScheduler scheduler, Supplier<Instant> observedStart) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.runtimeId = Objects.requireNonNull(runtimeIds, "runtimeIds").get();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.observedStart = Objects.requireNonNull(observedStart, "observedStart");
    }

    /** Registers, then heartbeats every {@code heartbeatPeriod}. Call once the transport is bound. Never throws. */
    public synchronized RegistrationState start(Duration heartbeatPeriod) {
        Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat period must be positive, got " + heartbeatPeriod);
        }
        RegistrationState registered = register();
        if (!stopped && cancelHeartbeat == null) {
            cancelHeartbeat = scheduler.schedule(this::heartbeat, heartbeatPeriod);
        }
        return registered;
    }

    /**
     * Stores this server's registration, registered now. Only a missing or outdated registry is
     * migrated (by the writer): running the changelog on every start would queue servers that start
     * together behind one another. Never throws.
     */
    public synchronized RegistrationState register() {
        if (stopped) {
            return state;
        }
        Instant now = clock.now();
        try {
            Registration stored = registry.register(registration(runtimeId, now), Optional.of(RegistryWriter.DEFAULT_RETENTION));
            state = new RegistrationState.Registered(stored);
            LOG.info("registered as runtime {} (namespace {}, profile {}, pid {}, transport {})", runtimeId,
                    identity.namespace(), identity.profile(), identity.pid(), identity.transport().code());
        } catch (RuntimeException e) {
            state = new RegistrationState.Failed(runtimeId, describe(e), now);
            LOG.error("registration failed, serving anyway (assessments will list this process as "
                    + "unregistered; retrying at the next heartbeat): {}", describe(e));
        }
        return state;
    }

    /**
     * One heartbeat: advances {@code last_heartbeat_at}; registers afresh when the row is gone (for
     * instance pruned, or deleted by hand) or when the last registration failed. Never throws.
     */
    public synchronized RegistrationState heartbeat() {
        if (stopped) {
            return state;
        }
        RegistrationState current = state;
        if (current instanceof RegistrationState.Registered && startHasMoved()) {
            return register();
        }
        if (current instanceof RegistrationState.Registered registered) {
            Registration row = registered.registration();
            Instant now = clock.now();
            try {
                if (registry.heartbeat(row.runtimeId(), now)) {
                    state = new RegistrationState.Registered(row.withLastHeartbeatAt(now));
                } else {
                    LOG.warn("registry row {} is gone; registering again", row.runtimeId());
                    register();
                }
            } catch (RuntimeException e) {
                // The row is still ours; a lock or I/O hiccup is retried at the next tick.
                LOG.warn("heartbeat for {} failed: {}", row.runtimeId(), describe(e));
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
    private boolean startHasMoved() {
        Instant recorded = identity.processStartedAt();
        Instant observed;
        try {
            observed = observedStart.get();
        } catch (RuntimeException e) {
            return false;
        }
        if (recorded == null || observed == null
                || Duration.between(recorded, observed).abs().compareTo(Duration.ofSeconds(1)) <= 0) {
            return false;
        }
        LOG.warn("this process's start now reads {} instead of {} (the wall clock stepped); registering again",
                observed, recorded);
        identity = identity.withProcessStartedAt(observed);
        return true;
    }

    /** Stops heartbeating and marks the row stopped. Idempotent: only the first call writes. Never throws. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (cancelHeartbeat != null) {
            cancelHeartbeat.run();
        }
        if (state instanceof RegistrationState.Registered registered) {
            Registration row = registered.registration();
            Instant now = clock.now();
            try {
                if (registry.markStopped(row.runtimeId(), now)) {
                    state = new RegistrationState.Registered(row.withStatus(RegistrationStatus.STOPPED, now));
                    LOG.info("marked runtime {} stopped", row.runtimeId());
                } else {
                    LOG.warn("registry row {} was already gone when stopping", row.runtimeId());
                }
            } catch (RuntimeException e) {
                LOG.error("could not mark runtime {} stopped: {}", row.runtimeId(), describe(e));
            }
        }
    }

    public RegistrationState state() {
        return state;
    }

    public ServerIdentity identity() {
        return identity;
    }

    public synchronized boolean isStopped() {
        return stopped;
    }

    private Registration registration(String runtimeId, Instant now) {
        // process_started_at is the OS's start instant from the identity, never "now": a JVM takes
        // a second to reach main, which would otherwise look like a recycled pid.
        return new Registration(runtimeId, identity.namespace(), identity.profile(), identity.role(),
                identity.binding().remote(), identity.binding().org(), identity.binding().repo(),
                identity.repositoryRoot(), identity.pid(), identity.cohort().id(), identity.cohort().source(),
                identity.clientProvenance().code(), identity.bootId(), identity.processStartedAt(),
                identity.startupHead(), identity.transport().code(), RegistrationStatus.RUNNING, now, now, null,
                identity.pidNamespace());
    }

    private static String describe(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
