package dev.fleet.domain;

import java.time.Instant;

/**
 * How a registration holds its row: its status, when it registered, its last heartbeat (the lease
 * runs from it) and when it stopped (null while running). {@link Registration} requires the first three.
 */
public record Tenure(RegistrationStatus status, Instant registeredAt, Instant lastHeartbeatAt, Instant stoppedAt) {
}
