package dev.fleet.domain.lifecycle;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** A fake of the domain's {@link RegistryWriter} port: rows in a map, every call logged as one line. */
public final class InMemoryRegistry implements RegistryWriter {

    private final Map<String, Registration> rows = new LinkedHashMap<>();
    private final List<String> calls = new ArrayList<>();
    private final Consumer<String> onCall;
    private RuntimeException registrationFailure;
    private Duration registrationDelay = Duration.ZERO;

    private RuntimeException heartbeatFailure;

    public InMemoryRegistry() {
        this(line -> { });
    }

    /** @param onCall sees each call line as it happens (the test server main appends them to a file) */
    public InMemoryRegistry(Consumer<String> onCall) {
        this.onCall = onCall;
    }

    @Override
    public synchronized void migrate() {
        record("migrate");
    }

    /**
     * Records the call, waits out any registration delay (without holding this registry, so reads go
     * on meanwhile, as they would beside a slow first migration), then stores the row.
     */
    @Override
    public Registration register(Registration registration, Optional<Duration> retention) {
        Duration delay;
        synchronized (this) {
            record("register " + registration.runtimeId() + " retention="
                    + retention.map(Duration::toString).orElse("none"));
            if (registrationFailure != null) {
                throw registrationFailure;
            }
            delay = registrationDelay;
        }
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            rows.values().removeIf(row -> row.process().pid() == registration.process().pid());
            rows.put(registration.runtimeId(), registration);
            return registration;
        }
    }

    @Override
    public synchronized boolean heartbeat(String runtimeId, Instant at) {
        if (heartbeatFailure != null) {
            record("heartbeat " + runtimeId + " " + at + " failed");
            throw heartbeatFailure;
        }
        return update("heartbeat", runtimeId, at, row -> row.withLastHeartbeatAt(at));
    }

    /** Makes each heartbeat fail with {@code failure} (a registry that is down), or succeed again when null. */
    public synchronized void failHeartbeatsWith(RuntimeException failure) {
        heartbeatFailure = failure;
    }

    @Override
    public synchronized boolean markStopped(String runtimeId, Instant at) {
        return update("markStopped", runtimeId, at, row -> row.withStatus(RegistrationStatus.STOPPED, at));
    }

    private boolean update(String verb, String runtimeId, Instant at, java.util.function.UnaryOperator<Registration> change) {
        Registration row = rows.get(runtimeId);
        record(verb + " " + runtimeId + " " + at + " found=" + (row != null));
        if (row == null) {
            return false;
        }
        rows.put(runtimeId, change.apply(row));
        return true;
    }

    /** Makes each registration take {@code delay}, like a first migration on a slow disk. */
    public synchronized void delayRegistrationsBy(Duration delay) {
        registrationDelay = delay;
    }

    public synchronized void failRegistrationsWith(RuntimeException failure) {
        registrationFailure = failure;
    }

    /** Deletes a row behind the server's back, as an operator or a retention prune might. */
    public synchronized void delete(String runtimeId) {
        rows.remove(runtimeId);
    }

    public synchronized List<Registration> rows() {
        return List.copyOf(rows.values());
    }

    public synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    public synchronized long count(String verb) {
        return calls.stream().filter(line -> line.equals(verb) || line.startsWith(verb + " ")).count();
    }

    private void record(String line) {
        calls.add(line);
        onCall.accept(line);
    }
}
