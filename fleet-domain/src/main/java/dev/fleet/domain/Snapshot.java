package dev.fleet.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Everything a verdict is computed from. {@code observedAt}, {@code registryPath} and
 * {@code answeredBy} only describe the observation; they never influence classification.
 */
public record Snapshot(
        Roster roster,
        RegistryRead registry,
        ProcessObservation observation,
        Instant observedAt,
        String registryPath,
        AnsweredBy answeredBy) {

    public Snapshot {
        Objects.requireNonNull(roster, "roster");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(observedAt, "observedAt");
    }
}
