package dev.fleet.cli.registry;

import dev.fleet.domain.HostId;
import dev.fleet.domain.Lease;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.ProcessObserver;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The ALIVE column of {@code registry list}: whether each running row stands for a live server now, as the
 * assessment would judge it (docs/CONTRACT.md, "Many hosts"). A row of this host: whether its pid is alive
 * (only whether it exists: a recycled pid is the assessment's question). A row of another host names a pid
 * this host cannot see, so only its lease speaks for it: its last heartbeat within the lease, by the
 * registry's clock. "yes" or "no"; "?" when the process table cannot be read, or a remote row's heartbeat
 * cannot be; "-" for a row that is not running.
 *
 * @param ownHostId this host's id; null when unknown (every row is then this host's)
 * @param registryNow the registry's clock at the read (PostgreSQL's {@code now()}), else the answerer's
 * @param localPids the pids alive among this host's running rows; null when the process table cannot be read
 */
record RowLiveness(String ownHostId, Lease lease, Instant registryNow, Set<Long> localPids) {

    static final String YES = "yes";
    static final String NO = "no";
    static final String UNKNOWN = "?";
    static final String NOT_RUNNING = "-";

    RowLiveness {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(registryNow, "registryNow");
        localPids = localPids == null ? null : Set.copyOf(localPids);
    }

    /**
     * The liveness of {@code read}'s rows: the pids of this host's running rows observed once (and only
     * those: another host's pid names some unrelated process here, or none).
     */
    static RowLiveness of(RegistryRead read, String ownHostId, Lease lease, Instant answererNow,
            ProcessObserver observer) {
        Instant clock = read instanceof RegistryRead.Readable readable && readable.clock() != null
                ? readable.clock() : answererNow;
        Set<Long> local = read.rows().stream().filter(RowLiveness::running)
                .filter(row -> !HostId.differ(row.hostId(), ownHostId))
                .map(RegistryRow::pid).filter(Objects::nonNull).collect(Collectors.toSet());
        if (local.isEmpty()) {
            return new RowLiveness(ownHostId, lease, clock, Set.of());
        }
        ProcessObservation observation = observer.observe(List.of(), local);
        Set<Long> alive = observation instanceof ProcessObservation.Available
                ? observation.processes().stream().map(ObservedProcess::pid).collect(Collectors.toSet()) : null;
        return new RowLiveness(ownHostId, lease, clock, alive);
    }

    /** Whether {@code row} is of another host, and so judged by its lease. */
    boolean remote(RegistryRow row) {
        return HostId.differ(row.hostId(), ownHostId);
    }

    /** "yes", "no", "?" or "-" for {@code row}. */
    String of(RegistryRow row) {
        if (!running(row)) {
            return NOT_RUNNING;
        }
        if (remote(row)) {
            Optional<Instant> heartbeat = Timestamps.parse(row.lastHeartbeatAt());
            return heartbeat.map(at -> lease.expired(at, registryNow) ? NO : YES).orElse(UNKNOWN);
        }
        if (row.pid() == null) {
            return NOT_RUNNING;
        }
        if (localPids == null) {
            return UNKNOWN;
        }
        return localPids.contains(row.pid()) ? YES : NO;
    }

    private static boolean running(RegistryRow row) {
        return RegistrationStatus.RUNNING.code().equals(row.status());
    }
}
