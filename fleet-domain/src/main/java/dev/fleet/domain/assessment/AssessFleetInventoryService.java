package dev.fleet.domain.assessment;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Lease;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.Verdict;
import java.time.InstantSource;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the registry, then observes the processes it names (servers, their recorded parents and the
 * servers they wrap) and those that look like servers, with the ancestors of the latter when a row
 * wraps a server, and classifies the snapshot. It holds only read ports: it cannot write the registry.
 */
public final class AssessFleetInventoryService implements AssessFleetInventoryUseCase {

    private final Roster roster;
    private final RegistryEvidence registry;
    private final ProcessObserver observer;
    private final InstantSource clock;
    private final AnsweredBy answeredBy;
    private final String hostId;
    private final Lease lease;

    /** An answerer that knows no host id of its own: every row is local to it. */
    public AssessFleetInventoryService(
            Roster roster, RegistryEvidence registry, ProcessObserver observer, InstantSource clock, AnsweredBy answeredBy) {
        this(roster, registry, observer, clock, answeredBy, null, Lease.DEFAULT);
    }

    /**
     * @param answeredBy the fleet server answering, or null when the CLI answers
     * @param hostId this host's {@link dev.fleet.domain.HostId}, null when unknown
     * @param lease how long a row of another host lives without a heartbeat
     */
    public AssessFleetInventoryService(Roster roster, RegistryEvidence registry, ProcessObserver observer,
            InstantSource clock, AnsweredBy answeredBy, String hostId, Lease lease) {
        this.hostId = hostId;
        this.lease = Objects.requireNonNull(lease, "lease");
        this.roster = Objects.requireNonNull(roster, "roster");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.answeredBy = answeredBy;
    }

    @Override
    public Verdict assess() {
        return FleetClassifier.classify(snapshot());
    }

    private static void addIfPid(Set<Long> pids, Long pid) {
        if (pid != null && pid > 0 && pid <= RegistryRow.MAX_PID) {
            pids.add(pid);
        }
    }

    /** The evidence of one assessment, taken now. */
    private Snapshot snapshot() {
        RegistryRead read = registry.readAll();
        // The parents rows recorded are looked up in the same observation as the servers: whether a
        // client is gone is then a fact of this snapshot, never of a second look taken later.
        // Ancestors are looked up only when a row wraps a server: without one no process can be served,
        // and a fleet of plain members pays nothing for the walk.
        Set<Long> registeredPids = new HashSet<>();
        boolean wrapsAServer = false;
        for (RegistryRow row : read.rows()) {
            addIfPid(registeredPids, row.pid());
            addIfPid(registeredPids, row.parentPid());
            addIfPid(registeredPids, row.serverPid());
            wrapsAServer |= row.serverPid() != null;
        }
        ProcessObservation observation = observer.observe(roster.serverProcessPatterns(),
                Collections.unmodifiableSet(registeredPids), wrapsAServer);
        return new Snapshot(roster, read, observation, clock.instant(), registry.location(), answeredBy, hostId, lease);
    }
}
