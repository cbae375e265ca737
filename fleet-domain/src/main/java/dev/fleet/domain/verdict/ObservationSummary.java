package dev.fleet.domain.verdict;

import dev.fleet.domain.AnsweredBy;
import java.time.Instant;

/** Where and when the observation was made, and by whom. Excluded from the digest. */
public record ObservationSummary(
        Instant observedAt,
        String bootId,
        String hostname,
        String hostId,
        String pidNamespace,
        String registryPath,
        AnsweredBy answeredBy) {
}
