package dev.fleet.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One interpretable row of {@code mcp_server_runtimes}: a server's statement about itself.
 * Required fields are checked here, so a {@code Registration} in hand is always sound.
 * {@code pidNamespace} is the registering server's pid namespace (Linux: {@code pid:[4026531836]}),
 * null when unknown: its pid means that process only in that namespace. {@code endpoint} is where an
 * HTTP server listens ({@code http://127.0.0.1:43615/mcp}), null for stdio. {@code parentPid} and
 * {@code parentStartedAt} name the process that started the server (its client), each null when
 * unknown: the orphan rule asks whether that process still lives. {@code hostId} is the registering
 * server's {@link HostId}, null when unknown: a row of another host is judged by its lease. {@code serverCommand},
 * {@code serverPid} and {@code serverStartedAt} describe the server a {@code fleet serve -- COMMAND} member
 * wraps (its argv with secrets masked, its child's pid and start), each null when the member wraps nothing
 * or it is unknown: the processes it serves are no strays. {@code cohortSource},
 * {@code clientProvenance} and {@code transport} are {@link Stated}: the contract's constant where the
 * row holds one of its codes, and always the text as stored, which a foreign row may spell otherwise.
 */
public record Registration(
        String runtimeId,
        RosterMember identity,
        Binding binding,
        String repositoryRoot,
        long pid,
        String cohortId,
        Stated<CohortSource> cohortSource,
        Stated<ClientProvenance> clientProvenance,
        String bootId,
        Instant processStartedAt,
        String startupHead,
        Stated<Transport> transport,
        RegistrationStatus status,
        Instant registeredAt,
        Instant lastHeartbeatAt,
        Instant stoppedAt,
        String pidNamespace,
        String endpoint,
        Long parentPid,
        Instant parentStartedAt,
        String hostId,
        String serverCommand,
        Long serverPid,
        Instant serverStartedAt) implements InterpretedRow {

    public Registration {
        if (Text.isBlank(runtimeId)) {
            throw new IllegalArgumentException("registration: runtime_id must be non-blank");
        }
        Objects.requireNonNull(identity, "registration: identity is required");
        if (Text.isBlank(identity.namespace())) {
            throw new IllegalArgumentException("registration: namespace must be non-blank");
        }
        if (pid <= 0) {
            throw new IllegalArgumentException("registration: pid must be a positive integer, got " + pid);
        }
        Objects.requireNonNull(binding, "registration: binding is required");
        Objects.requireNonNull(cohortSource, "registration: cohort_source is required");
        clientProvenance = clientProvenance == null ? Stated.none() : clientProvenance;
        transport = transport == null ? Stated.none() : transport;
        Objects.requireNonNull(status, "registration: status is required");
        Objects.requireNonNull(registeredAt, "registration: registered_at is required");
        Objects.requireNonNull(lastHeartbeatAt, "registration: last_heartbeat_at is required");
    }

    public String namespace() {
        return identity.namespace();
    }

    public String profile() {
        return identity.profile();
    }

    public String role() {
        return identity.role();
    }

    public boolean isRunning() {
        return status == RegistrationStatus.RUNNING;
    }

    public Registration withStatus(RegistrationStatus newStatus, Instant newStoppedAt) {
        return toBuilder().status(newStatus).stoppedAt(newStoppedAt).build();
    }

    public Registration withLastHeartbeatAt(Instant heartbeat) {
        return toBuilder().lastHeartbeatAt(heartbeat).build();
    }

    /** A builder holding this registration's fields, to copy it with some of them changed. */
    public Builder toBuilder() {
        Builder copy = new Builder();
        copy.runtimeId = runtimeId;
        copy.identity = identity;
        copy.binding = binding;
        copy.repositoryRoot = repositoryRoot;
        copy.pid = pid;
        copy.cohortId = cohortId;
        copy.cohortSource = cohortSource;
        copy.clientProvenance = clientProvenance;
        copy.bootId = bootId;
        copy.processStartedAt = processStartedAt;
        copy.startupHead = startupHead;
        copy.transport = transport;
        copy.status = status;
        copy.registeredAt = registeredAt;
        copy.lastHeartbeatAt = lastHeartbeatAt;
        copy.stoppedAt = stoppedAt;
        copy.pidNamespace = pidNamespace;
        copy.endpoint = endpoint;
        copy.parentPid = parentPid;
        copy.parentStartedAt = parentStartedAt;
        copy.hostId = hostId;
        copy.serverCommand = serverCommand;
        copy.serverPid = serverPid;
        copy.serverStartedAt = serverStartedAt;
        return copy;
    }

    /** The same registration as the registry stores it: the inverse of {@link RegistryRow#interpret()}. */
    public RegistryRow toRow() {
        return new RegistryRow(runtimeId, identity.namespace(), identity.profile(), identity.role(), binding.remote(),
                binding.org(), binding.repo(), repositoryRoot, pid, cohortId, cohortSource.text(), clientProvenance.text(), bootId,
                Timestamps.format(processStartedAt), startupHead, transport.text(), status.code(),
                Timestamps.format(registeredAt), Timestamps.format(lastHeartbeatAt), Timestamps.format(stoppedAt),
                pidNamespace, endpoint, parentPid, Timestamps.format(parentStartedAt), hostId, serverCommand, serverPid,
                Timestamps.format(serverStartedAt));
    }

    /** A registration to fill in field by field: required fields are checked by {@link Builder#build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Names every field once, so a registration is made or copied without restating the whole list by
     * position. Unset fields are null (pid 0), which {@link #build()} refuses where a field is required.
     */
    public static final class Builder {
        private String runtimeId;
        private RosterMember identity;
        private Binding binding;
        private String repositoryRoot;
        private long pid;
        private String cohortId;
        private Stated<CohortSource> cohortSource;
        private Stated<ClientProvenance> clientProvenance;
        private String bootId;
        private Instant processStartedAt;
        private String startupHead;
        private Stated<Transport> transport;
        private RegistrationStatus status;
        private Instant registeredAt;
        private Instant lastHeartbeatAt;
        private Instant stoppedAt;
        private String pidNamespace;
        private String endpoint;
        private Long parentPid;
        private Instant parentStartedAt;
        private String hostId;
        private String serverCommand;
        private Long serverPid;
        private Instant serverStartedAt;

        private Builder() {
        }

        public Builder runtimeId(String value) {
            runtimeId = value;
            return this;
        }

        public Builder identity(RosterMember value) {
            identity = value;
            return this;
        }

        public Builder binding(Binding value) {
            binding = value;
            return this;
        }

        public Builder repositoryRoot(String value) {
            repositoryRoot = value;
            return this;
        }

        public Builder pid(long value) {
            pid = value;
            return this;
        }

        /** The cohort pair: the id (null when unknown) and where it came from ({@code cohort_source}). */
        public Builder cohort(String id, Stated<CohortSource> source) {
            cohortId = id;
            cohortSource = source;
            return this;
        }

        /** The cohort pair as this program states it. */
        public Builder cohort(String id, CohortSource source) {
            return cohort(id, Stated.of(source));
        }

        public Builder clientProvenance(Stated<ClientProvenance> value) {
            clientProvenance = value;
            return this;
        }

        public Builder clientProvenance(ClientProvenance value) {
            return clientProvenance(Stated.of(value));
        }

        public Builder bootId(String value) {
            bootId = value;
            return this;
        }

        public Builder processStartedAt(Instant value) {
            processStartedAt = value;
            return this;
        }

        public Builder startupHead(String value) {
            startupHead = value;
            return this;
        }

        public Builder transport(Stated<Transport> value) {
            transport = value;
            return this;
        }

        public Builder transport(Transport value) {
            return transport(Stated.of(value));
        }

        public Builder status(RegistrationStatus value) {
            status = value;
            return this;
        }

        public Builder registeredAt(Instant value) {
            registeredAt = value;
            return this;
        }

        public Builder lastHeartbeatAt(Instant value) {
            lastHeartbeatAt = value;
            return this;
        }

        public Builder stoppedAt(Instant value) {
            stoppedAt = value;
            return this;
        }

        public Builder pidNamespace(String value) {
            pidNamespace = value;
            return this;
        }

        public Builder endpoint(String value) {
            endpoint = value;
            return this;
        }

        /** The process that started the server, its client: pid and start instant, each null when unknown. */
        public Builder parent(Long pid, Instant startedAt) {
            parentPid = pid;
            parentStartedAt = startedAt;
            return this;
        }

        public Builder hostId(String value) {
            hostId = value;
            return this;
        }

        /** The server this member wraps: its masked command line, pid and start, each null when unknown or none. */
        public Builder server(String command, Long pid, Instant startedAt) {
            serverCommand = command;
            serverPid = pid;
            serverStartedAt = startedAt;
            return this;
        }

        public Registration build() {
            return new Registration(runtimeId, identity, binding, repositoryRoot, pid, cohortId, cohortSource,
                    clientProvenance, bootId, processStartedAt, startupHead, transport, status, registeredAt,
                    lastHeartbeatAt, stoppedAt, pidNamespace, endpoint, parentPid, parentStartedAt, hostId,
                    serverCommand, serverPid, serverStartedAt);
        }
    }
}
