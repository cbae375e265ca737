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
import dev.fleet.domain.port.out.RegistryReader;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.JsonVerdict;
import dev.fleet.domain.verdict.Verdict;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the registry, then observes the processes it names (servers and their recorded parents) and
 * those that look like servers, and classifies the snapshot. It holds only read ports: it cannot write the registry.
 */
public final class AssessFleetInventoryService implements AssessFleetInventoryUseCase {

    private final Roster roster;
    private final RegistryReader registry;
    private final ProcessObserver observer;
    private final InstantSource clock;
    private final AnsweredBy answeredBy;
    private final String hostId;
    private final Lease lease;

    /** An answerer that knows no host id of its own: every row is local to it. */
    public AssessFleetInventoryService(
            Roster roster, RegistryReader registry, ProcessObserver observer, InstantSource clock, AnsweredBy answeredBy) {
        this(roster, registry, observer, clock, answeredBy, null, Lease.DEFAULT);
    }

    /**
     * @param answeredBy the fleet server answering, or null when the CLI answers
     * @param hostId this host's {@link dev.fleet.domain.HostId}, null when unknown
     * @param lease how long a row of another host lives without a heartbeat
     */
    public AssessFleetInventoryService(Roster roster, RegistryReader registry, ProcessObserver observer,
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

    @Override
    public JsonVerdict assessWithJson() {
        return FleetClassifier.classifyWithJson(snapshot());
    }

    /** The evidence of one assessment, taken now. */
    public Snapshot snapshot() {
        RegistryRead read = registry.readAll();
        // The parents rows recorded are looked up in the same observation as the servers: whether a
        // client is gone is then a fact of this snapshot, never of a second look taken later.
        Set<Long> registeredPids = read.rows().stream()
                .flatMap(row -> Stream.of(row.pid(), row.parentPid()))
                .filter(pid -> pid != null && pid > 0 && pid <= RegistryRow.MAX_PID)
                .collect(Collectors.toUnmodifiableSet());
        ProcessObservation observation = observer.observe(roster.serverProcessPatterns(), registeredPids);
        return new Snapshot(roster, read, observation, clock.instant(), registry.location(), answeredBy, hostId, lease);
    }
}
