package dev.fleet.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One interpretable row of {@code mcp_server_runtimes}: a server's statement about itself, its fields
 * grouped by what they describe: who it is ({@link RosterMember}), what it is bound to
 * ({@link Binding}), the process it runs in ({@link RegisteredProcess}), how it holds its row
 * ({@link Tenure}), its client ({@link RegisteredParent}) and the server a member wraps
 * ({@link WrappedServer}). Required fields are checked here, so a {@code Registration} in hand is always
 * sound. {@code endpoint} is where an HTTP server listens ({@code http://127.0.0.1:43615/mcp}), null
 * for stdio. {@code cohortSource}, {@code clientProvenance} and {@code transport} are {@link Stated}:
 * the contract's constant where the row holds one of its codes, and always the text as stored, which a
 * foreign row may spell otherwise.
 */
public record Registration(
        String runtimeId,
        RosterMember identity,
        Binding binding,
        String repositoryRoot,
        RegisteredProcess process,
        String cohortId,
        Stated<CohortSource> cohortSource,
        Stated<ClientProvenance> clientProvenance,
        String startupHead,
        Stated<Transport> transport,
        Tenure tenure,
        String endpoint,
        RegisteredParent parent,
        WrappedServer server) implements InterpretedRow {

    public Registration {
        if (Text.isBlank(runtimeId)) {
            throw new IllegalArgumentException("registration: runtime_id must be non-blank");
        }
        Objects.requireNonNull(identity, "registration: identity is required");
        if (Text.isBlank(identity.namespace())) {
            throw new IllegalArgumentException("registration: namespace must be non-blank");
        }
        Objects.requireNonNull(process, "registration: process is required");
        if (process.pid() <= 0) {
            throw new IllegalArgumentException("registration: pid must be a positive integer, got " + process.pid());
        }
        Objects.requireNonNull(binding, "registration: binding is required");
        Objects.requireNonNull(cohortSource, "registration: cohort_source is required");
        clientProvenance = clientProvenance == null ? Stated.none() : clientProvenance;
        transport = transport == null ? Stated.none() : transport;
        Objects.requireNonNull(tenure, "registration: tenure is required");
        Objects.requireNonNull(tenure.status(), "registration: status is required");
        Objects.requireNonNull(tenure.registeredAt(), "registration: registered_at is required");
        Objects.requireNonNull(tenure.lastHeartbeatAt(), "registration: last_heartbeat_at is required");
        parent = parent == null ? RegisteredParent.UNKNOWN : parent;
        server = server == null ? WrappedServer.NONE : server;
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
        return tenure.status() == RegistrationStatus.RUNNING;
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
        copy.pid = process.pid();
        copy.pidNamespace = process.pidNamespace();
        copy.bootId = process.bootId();
        copy.processStartedAt = process.startedAt();
        copy.hostId = process.hostId();
        copy.cohortId = cohortId;
        copy.cohortSource = cohortSource;
        copy.clientProvenance = clientProvenance;
        copy.startupHead = startupHead;
        copy.transport = transport;
        copy.status = tenure.status();
        copy.registeredAt = tenure.registeredAt();
        copy.lastHeartbeatAt = tenure.lastHeartbeatAt();
        copy.stoppedAt = tenure.stoppedAt();
        copy.endpoint = endpoint;
        copy.parent = parent;
        copy.server = server;
        return copy;
    }

    /** The same registration as the registry stores it: the inverse of {@link RegistryRow#interpret()}. */
    public RegistryRow toRow() {
        return new RegistryRow(runtimeId, identity.namespace(), identity.profile(), identity.role(), binding.remote(),
                binding.org(), binding.repo(), repositoryRoot, process.pid(), cohortId, cohortSource.text(),
                clientProvenance.text(), process.bootId(), Timestamps.format(process.startedAt()), startupHead,
                transport.text(), tenure.status().code(), Timestamps.format(tenure.registeredAt()),
                Timestamps.format(tenure.lastHeartbeatAt()), Timestamps.format(tenure.stoppedAt()),
                process.pidNamespace(), endpoint, parent.pid(), Timestamps.format(parent.startedAt()),
                process.hostId(), server.command(), server.pid(), Timestamps.format(server.startedAt()));
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
        private RegisteredParent parent;
        private String hostId;
        private WrappedServer server;

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
            parent = new RegisteredParent(pid, startedAt);
            return this;
        }

        public Builder hostId(String value) {
            hostId = value;
            return this;
        }

        /** The server this member wraps: its masked command line, pid and start, each null when unknown or none. */
        public Builder server(String command, Long pid, Instant startedAt) {
            server = new WrappedServer(command, pid, startedAt);
            return this;
        }

        public Registration build() {
            return new Registration(runtimeId, identity, binding, repositoryRoot,
                    new RegisteredProcess(pid, pidNamespace, bootId, processStartedAt, hostId), cohortId, cohortSource,
                    clientProvenance, startupHead, transport,
                    new Tenure(status, registeredAt, lastHeartbeatAt, stoppedAt), endpoint, parent, server);
        }
    }
}
