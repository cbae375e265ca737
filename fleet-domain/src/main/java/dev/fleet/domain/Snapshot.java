package dev.fleet.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Everything a verdict is computed from. {@code registryPath} and {@code answeredBy} only describe the
 * observation; they never influence classification. {@code hostId} is the answerer's own {@link
 * HostId} (null when unknown: then every row counts as local) and {@code lease} how long a row of
 * another host lives without a heartbeat, judged at the registry's clock ({@link #registryNow}).
 */
public record Snapshot(
        Roster roster,
        RegistryRead registry,
        ProcessObservation observation,
        Instant observedAt,
        String registryPath,
        AnsweredBy answeredBy,
        String hostId,
        Lease lease) {

    public Snapshot {
        Objects.requireNonNull(roster, "roster");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(observedAt, "observedAt");
        Objects.requireNonNull(lease, "lease");
    }

    /** A snapshot of one host: no host id of its own, so every row is local and judged as before. */
    public Snapshot(Roster roster, RegistryRead registry, ProcessObservation observation, Instant observedAt,
            String registryPath, AnsweredBy answeredBy) {
        this(roster, registry, observation, observedAt, registryPath, answeredBy, null, Lease.DEFAULT);
    }

    /** The registry's own clock at the read when it reports one (PostgreSQL's {@code now()}), else the answerer's. */
    public Instant registryNow() {
        return registry instanceof RegistryRead.Readable readable && readable.clock() != null
                ? readable.clock() : observedAt;
    }
}
