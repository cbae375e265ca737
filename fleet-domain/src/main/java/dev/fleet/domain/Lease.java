package dev.fleet.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How long a row of another host stays believable without a heartbeat (docs/CONTRACT.md, "Many hosts"): its
 * process cannot be observed from here, so only its lease speaks for it. Judged against the
 * registry's own clock, so two hosts' clocks never need to agree.
 */
public record Lease(Duration length) {

    /** Three heartbeats at the default 30 s period. */
    public static final Lease DEFAULT = new Lease(Duration.ofSeconds(90));

    public Lease {
        Objects.requireNonNull(length, "lease length");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("a lease must be positive, got " + length);
        }
    }

    /** The last heartbeat is older than the lease at {@code registryNow}. */
    public boolean expired(Instant lastHeartbeatAt, Instant registryNow) {
        return lastHeartbeatAt.plus(length).isBefore(registryNow);
    }
}
