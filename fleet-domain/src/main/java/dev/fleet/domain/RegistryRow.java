package dev.fleet.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * A row of {@code mcp_server_runtimes} exactly as stored, read column by column by name. Other tools
 * write these rows too, so nothing is assumed: {@link #interpret()} decides whether it is a
 * registration or malformed. {@code processStartedAt}, {@code pidNamespace}, {@code endpoint},
 * {@code parentPid}, {@code parentStartedAt}, {@code hostId}, {@code serverCommand}, {@code serverPid} and
 * {@code serverStartedAt} are this project's own columns, null where a table lacks them. The parent and server
 * columns only describe a process beside the registering one (its client, the server it wraps), so a value
 * that cannot name a process or an instant reads as unknown rather than making the row malformed: an unknown
 * server serves no process, so nothing is hidden by it.
 */
public record RegistryRow(
        String runtimeId,
        String namespace,
        String profile,
        String role,
        String remote,
        String org,
        String repo,
        String repositoryRoot,
        Long pid,
        String cohortId,
        String cohortSource,
        String clientProvenance,
        String bootId,
        String processStartedAt,
        String startupHead,
        String transport,
        String status,
        String registeredAt,
        String lastHeartbeatAt,
        String stoppedAt,
        String pidNamespace,
        String endpoint,
        Long parentPid,
        String parentStartedAt,
        String hostId,
        String serverCommand,
        Long serverPid,
        String serverStartedAt) {

    /**
     * The largest pid any process can have: {@code pid_t} is a signed 32-bit integer on every system
     * this runs on (Linux caps pids far lower still, at 2^22). A larger pid names no process, so it
     * is {@code pid_invalid}, whatever its number of digits, rather than a process that has exited.
     */
    public static final long MAX_PID = Integer.MAX_VALUE;

    /** A row without the columns of a wrapped server ({@code server_command}, {@code server_pid}, {@code server_started_at}). */
    public RegistryRow(String runtimeId, String namespace, String profile, String role, String remote, String org,
            String repo, String repositoryRoot, Long pid, String cohortId, String cohortSource,
            String clientProvenance, String bootId, String processStartedAt, String startupHead, String transport,
            String status, String registeredAt, String lastHeartbeatAt, String stoppedAt, String pidNamespace,
            String endpoint, Long parentPid, String parentStartedAt, String hostId) {
        this(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid, cohortId, cohortSource,
                clientProvenance, bootId, processStartedAt, startupHead, transport, status, registeredAt,
                lastHeartbeatAt, stoppedAt, pidNamespace, endpoint, parentPid, parentStartedAt, hostId, null, null,
                null);
    }

    /** The row as a registration, or the first reason it cannot be one. Never throws. */
    public InterpretedRow interpret() {
        if (Text.isBlank(runtimeId)) {
            return malformed(MalformedReason.RUNTIME_ID_BLANK);
        }
        if (Text.isBlank(namespace)) {
            return malformed(MalformedReason.NAMESPACE_BLANK);
        }
        if (pid == null || pid <= 0 || pid > MAX_PID) {
            return malformed(MalformedReason.PID_INVALID);
        }
        Optional<RegistrationStatus> parsedStatus = RegistrationStatus.fromCode(status);
        if (parsedStatus.isEmpty()) {
            return malformed(MalformedReason.STATUS_UNKNOWN);
        }
        Optional<Instant> registered = Timestamps.parse(registeredAt);
        if (registered.isEmpty()) {
            return malformed(MalformedReason.REGISTERED_AT_UNPARSEABLE);
        }
        Optional<Instant> heartbeat = Timestamps.parse(lastHeartbeatAt);
        if (heartbeat.isEmpty()) {
            return malformed(MalformedReason.LAST_HEARTBEAT_AT_UNPARSEABLE);
        }
        Optional<Instant> started = Timestamps.parse(processStartedAt);
        if (processStartedAt != null && started.isEmpty()) {
            return malformed(MalformedReason.PROCESS_STARTED_AT_UNPARSEABLE);
        }
        Optional<Instant> stopped = Timestamps.parse(stoppedAt);
        if (stoppedAt != null && stopped.isEmpty()) {
            return malformed(MalformedReason.STOPPED_AT_UNPARSEABLE);
        }
        return Registration.builder()
                .runtimeId(runtimeId)
                .identity(new RosterMember(namespace, profile, role))
                .binding(new Binding(remote, org, repo))
                .repositoryRoot(repositoryRoot)
                .pid(pid)
                .cohort(cohortId, cohortSource == null ? Stated.of(CohortSource.UNKNOWN)
                        : Stated.read(CohortSource.class, cohortSource))
                .clientProvenance(Stated.read(ClientProvenance.class, clientProvenance))
                .bootId(bootId)
                .processStartedAt(started.orElse(null))
                .startupHead(startupHead)
                .transport(Stated.read(Transport.class, transport))
                .status(parsedStatus.get())
                .registeredAt(registered.get())
                .lastHeartbeatAt(heartbeat.get())
                .stoppedAt(stopped.orElse(null))
                .pidNamespace(pidNamespace)
                .endpoint(endpoint)
                // As recorded: a parent_pid or server_pid that names no possible process (<= 0, beyond MAX_PID,
                // or stored as no integer, which the adapters read as -1) is a recorded process that is not
                // alive (the client gone, the server exited), never an unknown one: unknown would fail open.
                .parent(parentPid, Timestamps.parse(parentStartedAt).orElse(null))
                .hostId(hostId)
                .server(serverCommand, serverPid, Timestamps.parse(serverStartedAt).orElse(null))
                .build();
    }

    private MalformedRegistration malformed(MalformedReason reason) {
        return new MalformedRegistration(runtimeId, reason);
    }
}
