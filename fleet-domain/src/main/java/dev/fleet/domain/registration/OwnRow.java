package dev.fleet.domain.registration;

import dev.fleet.domain.Failures;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.out.LifecycleLog;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * This server's row and every write to it: registration and heartbeat, each under one lock that
 * the stop takes too. A stop first raises a flag that every later registration and heartbeat checks
 * under that lock, so a heartbeat can never re-register a server that has just been marked
 * stopped. Registry failures are logged and kept in {@link #state()}, never thrown.
 */
final class OwnRow {

    /** Replaced only for the endpoint, and when the observed start of this process moves (see {@link #heartbeatWritten()}). */
    private volatile ServerIdentity identity;
    private volatile RegistrationState state = new RegistrationState.Pending();
    private final String runtimeId;
    private final RegistryWriter registry;
    private final InstantSource clock;
    private final LifecycleLog log;
    private final Supplier<Instant> observedStart;

    /** Held by every registry write: registration, heartbeat and stop. */
    private final ReentrantLock writes = new ReentrantLock();
    /** Raised once, by the first stop, before it waits for {@link #writes}. */
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Counted down by the first registration attempt, or by the stop when none will come. */
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    /** Whether the last heartbeat's write failed (under {@link #writes}): the row may be older than it should be. */
    private boolean heartbeatFailed;

    OwnRow(ServerIdentity identity, String runtimeId, RegistryWriter registry, InstantSource clock, LifecycleLog log,
            Supplier<Instant> observedStart) {
        this.identity = identity;
        this.runtimeId = runtimeId;
        this.registry = registry;
        this.clock = clock;
        this.log = log;
        this.observedStart = observedStart;
    }

    ServerIdentity identity() {
        return identity;
    }

    RegistrationState state() {
        return state;
    }

    ReentrantLock writes() {
        return writes;
    }

    CountDownLatch firstAttempt() {
        return firstAttempt;
    }

    boolean stopping() {
        return stopping.get();
    }

    /** Raises the stop flag; true for the first caller only. Releases every wait for a first attempt. */
    boolean raiseStop() {
        boolean first = stopping.compareAndSet(false, true);
        firstAttempt.countDown(); // no tool call waits for a registration that will not come
        return first;
    }

    /** The endpoint an HTTP server listens on, known once it is bound; recorded from the next registration on. */
    void listenOn(String endpoint) {
        identity = identity.withEndpoint(endpoint);
    }

    /**
     * Stores this server's registration, registered now, unless a stop has begun. Only a missing or
     * outdated registry is migrated (by the writer): running the changelog on every start would
     * queue servers that start together behind one another.
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
                state = new RegistrationState.Failed(runtimeId, Failures.oneLine(e));
                log.error("registration failed, serving anyway (assessments will list this process as "
                        + "unregistered; retrying at the next heartbeat): " + Failures.oneLine(e));
            }
            return state;
        } finally {
            writes.unlock();
            firstAttempt.countDown();
        }
    }

    /**
     * One heartbeat: advances {@code last_heartbeat_at}; registers afresh when the row is gone (for
     * instance pruned, or deleted by hand), when the last registration failed, or when this
     * process's observed start has moved. Says whether the registry has this server's row as it should
     * now: false when the write failed or the registration is still to be made, so the next comes soon.
     */
    boolean heartbeatWritten() {
        // The process table is read before taking the lock: a stop must not wait behind that scan.
        Instant observed = state instanceof RegistrationState.Registered && !stopping.get() ? observedStart() : null;
        writes.lock();
        try {
            RegistrationState after = heartbeatLocked(observed);
            return stopping.get() || !(after instanceof RegistrationState.Failed) && !heartbeatFailed;
        } finally {
            writes.unlock();
        }
    }

    private RegistrationState heartbeatLocked(Instant observed) {
        if (stopping.get()) {
            return state;
        }
        heartbeatFailed = false; // this tick's write decides, a registration's as well as a heartbeat's
        RegistrationState current = state;
        if (current instanceof RegistrationState.Failed
                || current instanceof RegistrationState.Registered && startHasMoved(observed)) {
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
                // Whether the row is still there is unknown: the next tick heartbeats again, and
                // registers again if it finds the row gone.
                heartbeatFailed = true;
                log.warn("heartbeat for " + row.runtimeId() + " failed: " + Failures.oneLine(e));
            }
        }
        return state;
    }

    /** Records that the row was marked stopped at {@code at}. */
    void markedStopped(Registration row, Instant at) {
        state = new RegistrationState.Registered(row.withStatus(RegistrationStatus.STOPPED, at));
    }

    /** This process's start as observers see it now; null when unknown or unreadable. */
    private Instant observedStart() {
        try {
            return observedStart.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Observers compute a process's start from the boot time, which moves with the wall clock: after
     * a clock step, every assessment would read this server's row as a recycled pid. The server
     * notices it here (a move beyond {@link ObservedProcess#START_TOLERANCE}) and takes the start
     * observers now see, so that the registration that follows records it.
     */
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
}
