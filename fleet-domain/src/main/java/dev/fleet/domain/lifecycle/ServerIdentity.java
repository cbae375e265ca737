package dev.fleet.domain.lifecycle;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Text;
import dev.fleet.domain.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What this server says about itself: the facts its registration row records and that
 * {@code gitea_get_runtime_context} reports. The CLI computes the OS facts (pid, the OS start
 * instant, boot id) and resolves namespace and role from the roster by profile.
 *
 * @param profile the roster profile this server serves
 * @param namespace resolved from the roster by profile; non-blank
 * @param role resolved from the roster by profile
 * @param binding the repository this server is bound to
 * @param repositoryRoot the checkout the server works in, or null
 * @param pid this process's pid
 * @param processStartedAt the start instant the OS reports for this process (never "now"), or null
 * @param bootId the kernel boot id, or null
 * @param pidNamespace this process's pid namespace (Linux: {@code pid:[4026531836]}), or null
 * @param cohort the client cohort
 * @param startupHead the git revision of {@code repositoryRoot} at start, or null
 * @param transport the transport actually served
 * @param clientProvenance who started the server
 * @param endpoint where an HTTP server listens, known once it is bound; null for stdio
 * @param parent the process that started this server (its client over stdio), or null when unknown
 * @param hostId this host's {@link dev.fleet.domain.HostId}, or null when unknown
 * @param server the server this member wraps ({@code fleet serve -- COMMAND}), or null when it wraps nothing
 */
public record ServerIdentity(
        String profile,
        String namespace,
        String role,
        Binding binding,
        String repositoryRoot,
        long pid,
        Instant processStartedAt,
        String bootId,
        String pidNamespace,
        Cohort cohort,
        String startupHead,
        Transport transport,
        ClientProvenance clientProvenance,
        String endpoint,
        ParentProcess parent,
        String hostId,
        ServedServer server) {

    /** An identity that wraps no server. */
    public ServerIdentity(String profile, String namespace, String role, Binding binding, String repositoryRoot,
            long pid, Instant processStartedAt, String bootId, String pidNamespace, Cohort cohort, String startupHead,
            Transport transport, ClientProvenance clientProvenance, String endpoint, ParentProcess parent,
            String hostId) {
        this(profile, namespace, role, binding, repositoryRoot, pid, processStartedAt, bootId, pidNamespace, cohort,
                startupHead, transport, clientProvenance, endpoint, parent, hostId, null);
    }

    /** An identity whose parent and host are unknown. */
    public ServerIdentity(String profile, String namespace, String role, Binding binding, String repositoryRoot,
            long pid, Instant processStartedAt, String bootId, String pidNamespace, Cohort cohort, String startupHead,
            Transport transport, ClientProvenance clientProvenance, String endpoint) {
        this(profile, namespace, role, binding, repositoryRoot, pid, processStartedAt, bootId, pidNamespace, cohort,
                startupHead, transport, clientProvenance, endpoint, null, null);
    }

    /** An identity without an endpoint yet (stdio, or HTTP before binding). */
    public ServerIdentity(String profile, String namespace, String role, Binding binding, String repositoryRoot,
            long pid, Instant processStartedAt, String bootId, String pidNamespace, Cohort cohort, String startupHead,
            Transport transport, ClientProvenance clientProvenance) {
        this(profile, namespace, role, binding, repositoryRoot, pid, processStartedAt, bootId, pidNamespace, cohort,
                startupHead, transport, clientProvenance, null);
    }

    public ServerIdentity {
        if (Text.isBlank(namespace)) {
            throw new IllegalArgumentException("server identity: namespace must be non-blank");
        }
        if (pid <= 0) {
            throw new IllegalArgumentException("server identity: pid must be positive, got " + pid);
        }
        Objects.requireNonNull(binding, "server identity: binding");
        Objects.requireNonNull(cohort, "server identity: cohort");
        Objects.requireNonNull(transport, "server identity: transport");
        Objects.requireNonNull(clientProvenance, "server identity: clientProvenance");
    }

    /**
     * The same identity with the start instant the OS now reports for this process. Observers read every
     * start against the boot time, which a wall-clock step moves: the recorded starts of the parent and of the
     * wrapped server move by as much, so that they still name the same client and the same child.
     */
    public ServerIdentity withProcessStartedAt(Instant observedStart) {
        Duration step = processStartedAt == null || observedStart == null ? Duration.ZERO
                : Duration.between(processStartedAt, observedStart);
        return with(observedStart, parent == null ? null : parent.movedBy(step), endpoint, hostId,
                server == null ? null : server.movedBy(step));
    }

    /** The same identity started by {@code startedBy} (null: unknown). */
    public ServerIdentity withParent(ParentProcess startedBy) {
        return with(processStartedAt, startedBy, endpoint, hostId, server);
    }

    /** The same identity listening on {@code newEndpoint} (the HTTP runner learns it once bound, port 0 included). */
    public ServerIdentity withEndpoint(String newEndpoint) {
        return with(processStartedAt, parent, newEndpoint, hostId, server);
    }

    /** The same identity on the host {@code newHostId} (computed by the CLI, or set for tests and containers). */
    public ServerIdentity withHostId(String newHostId) {
        return with(processStartedAt, parent, endpoint, newHostId, server);
    }

    /** The same identity wrapping {@code child} (null: none), which the relay knows once it has started it. */
    public ServerIdentity withServer(ServedServer child) {
        return with(processStartedAt, parent, endpoint, hostId, child);
    }

    /** The same identity but for what is learnt after it is first made. */
    private ServerIdentity with(Instant start, ParentProcess startedBy, String listening, String host,
            ServedServer child) {
        return new ServerIdentity(profile, namespace, role, binding, repositoryRoot, pid, start, bootId,
                pidNamespace, cohort, startupHead, transport, clientProvenance, listening, startedBy, host, child);
    }

    /**
     * This server's registration as of {@code now}: running, registered and heartbeating now. Its
     * {@code process_started_at} is the OS's start instant, never "now": a JVM takes a second to
     * reach main, which would otherwise look like a recycled pid.
     */
    public Registration runningRegistration(String runtimeId, Instant now) {
        return Registration.builder()
                .runtimeId(runtimeId)
                .identity(new RosterMember(namespace, profile, role))
                .binding(binding)
                .repositoryRoot(repositoryRoot)
                .pid(pid)
                .cohort(cohort.id(), cohort.source())
                .clientProvenance(clientProvenance)
                .bootId(bootId)
                .processStartedAt(processStartedAt)
                .startupHead(startupHead)
                .transport(transport)
                .status(RegistrationStatus.RUNNING)
                .registeredAt(now)
                .lastHeartbeatAt(now)
                .pidNamespace(pidNamespace)
                .endpoint(endpoint)
                .parent(parent == null ? null : parent.pid(), parent == null ? null : parent.startedAt())
                .hostId(hostId)
                .server(server == null ? null : server.command(), server == null ? null : server.pid(),
                        server == null ? null : server.startedAt())
                .build();
    }

    /** How a verdict this server answers names it ({@code observation.answered_by}). */
    public AnsweredBy answeredBy() {
        return new AnsweredBy(pid, namespace, profile);
    }
}
