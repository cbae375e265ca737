package dev.fleet.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One interpretable row of {@code mcp_server_runtimes}: a server's statement about itself.
 * Required fields are checked here, so a {@code Registration} in hand is always sound.
 * {@code pidNamespace} is the registering server's pid namespace (Linux: {@code pid:[4026531836]}),
 * null when unknown: its pid means that process only in that namespace.
 */
public record Registration(
        String runtimeId,
        String namespace,
        String profile,
        String role,
        String remote,
        String org,
        String repo,
        String repositoryRoot,
        long pid,
        String cohortId,
        String cohortSource,
        String clientProvenance,
        String bootId,
        Instant processStartedAt,
        String startupHead,
        String transport,
        RegistrationStatus status,
        Instant registeredAt,
        Instant lastHeartbeatAt,
        Instant stoppedAt,
        String pidNamespace) implements InterpretedRow {

    /** {@code cohort_source} values of the contract. */
    public static final String COHORT_FROM_ENV = "env";
    public static final String COHORT_FROM_PARENT_PROCESS = "parent_process";
    public static final String COHORT_UNKNOWN = "unknown";
    /** {@code client_provenance} values of the contract. */
    public static final String CLIENT_MANAGED = "client_managed";
    public static final String OPERATOR_MANAGED = "operator_managed";

    public Registration {
        if (runtimeId == null || runtimeId.isBlank()) {
            throw new IllegalArgumentException("registration: runtime_id must be non-blank");
        }
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("registration: namespace must be non-blank");
        }
        if (pid <= 0) {
            throw new IllegalArgumentException("registration: pid must be a positive integer, got " + pid);
        }
        Objects.requireNonNull(cohortSource, "registration: cohort_source is required");
        Objects.requireNonNull(status, "registration: status is required");
        Objects.requireNonNull(registeredAt, "registration: registered_at is required");
        Objects.requireNonNull(lastHeartbeatAt, "registration: last_heartbeat_at is required");
    }

    public Binding binding() {
        return new Binding(remote, org, repo);
    }

    public RosterMember identity() {
        return new RosterMember(namespace, profile, role);
    }

    public boolean isRunning() {
        return status == RegistrationStatus.RUNNING;
    }

    public Registration withStatus(RegistrationStatus newStatus, Instant newStoppedAt) {
        return new Registration(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid,
                cohortId, cohortSource, clientProvenance, bootId, processStartedAt, startupHead, transport,
                newStatus, registeredAt, lastHeartbeatAt, newStoppedAt, pidNamespace);
    }

    public Registration withLastHeartbeatAt(Instant heartbeat) {
        return new Registration(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid,
                cohortId, cohortSource, clientProvenance, bootId, processStartedAt, startupHead, transport,
                status, registeredAt, heartbeat, stoppedAt, pidNamespace);
    }

    /** The same registration as the registry stores it: the inverse of {@link RegistryRow#interpret()}. */
    public RegistryRow toRow() {
        return new RegistryRow(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid,
                cohortId, cohortSource, clientProvenance, bootId, Timestamps.format(processStartedAt), startupHead,
                transport, status.code(), Timestamps.format(registeredAt), Timestamps.format(lastHeartbeatAt),
                Timestamps.format(stoppedAt), pidNamespace);
    }
}
