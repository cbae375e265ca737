package dev.fleet.domain.verdict;

import dev.fleet.domain.HostId;
import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.Lease;
import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Text;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The working state of one classification ({@link FleetClassifier#classify}), step by step: rows
 * interpreted and conflicting claims set aside (the constructor), running rows judged by the
 * contract's rules ({@link #checkRunningRegistrations}), live ones assigned to roster members, and
 * the verdict put together.
 */
final class Classification {

    /** Newest first: later {@code registered_at}, then greater {@code runtime_id}. */
    private static final Comparator<Registration> NEWEST_FIRST = Comparator
            .comparing(Registration::registeredAt)
            .thenComparing(Registration::runtimeId)
            .reversed();

    private final Roster roster;
    private final ProcessObservation observation;
    private final Map<Long, ObservedProcess> processes;
    private final List<Registration> registrations = new ArrayList<>();
    private final List<MalformedRegistration> malformed = new ArrayList<>();
    private final List<Registration> live = new ArrayList<>();
    private final List<FlaggedRegistration> stale = new ArrayList<>();
    private final List<FlaggedRegistration> unverified = new ArrayList<>();
    private final List<FlaggedRegistration> unexpected = new ArrayList<>();
    private final Map<RosterMember, List<Instance>> instances = new HashMap<>();
    private final List<OrphanedInstance> orphaned = new ArrayList<>();
    private final List<RemoteInstance> remoteInstances = new ArrayList<>();
    /** The answerer's pid namespace, trimmed; null when unknown. */
    private final String ownPidNamespace;
    /** The answerer's host id; null when unknown (every row is then local). */
    private final String ownHostId;
    private final Lease lease;
    private final Instant registryNow;

    Classification(Snapshot snapshot, Map<Long, ObservedProcess> processes) {
        this.roster = snapshot.roster();
        this.observation = snapshot.observation();
        this.ownPidNamespace = Text.strippedOrNull(observation.pidNamespace());
        this.ownHostId = snapshot.hostId();
        this.lease = snapshot.lease();
        this.registryNow = snapshot.registryNow();
        this.processes = processes;
        List<Registration> interpretable = new ArrayList<>();
        for (RegistryRow row : snapshot.registry().rows()) {
            InterpretedRow interpreted = row.interpret();
            if (interpreted instanceof Registration registration) {
                interpretable.add(registration);
            } else {
                malformed.add((MalformedRegistration) interpreted);
            }
        }
        setAsideConflictingClaims(interpretable);
        roster.members().forEach(member -> instances.put(member, new ArrayList<>()));
    }

    /**
     * Rows that contradict each other are malformed {@code conflicting_claims}, every one of them,
     * and the rest are registrations. Neither claim can be preferred without choosing by the order
     * the rows arrived in (or by {@code superseded}, which would let the one read last open the
     * gate): the same runtime_id with different content, or running rows that name one live
     * process (same pid, same pid namespace) as different members.
     */
    private void setAsideConflictingClaims(List<Registration> interpretable) {
        Set<Registration> conflicting = Collections.newSetFromMap(new IdentityHashMap<>());
        // Nearly every runtime_id has one row and nearly no pid two claims: a group is made only
        // for a key met twice, never a list per row.
        Map<String, List<Registration>> byRuntimeId = new HashMap<>();
        Map<PidInNamespace, List<Registration>> runningOnLivePid = new HashMap<>();
        Map<String, Registration> firstOfId = new HashMap<>();
        Map<PidInNamespace, Registration> firstOnPid = new HashMap<>();
        for (Registration registration : interpretable) {
            group(registration.runtimeId(), registration, firstOfId, byRuntimeId);
            if (registration.isRunning() && processes.containsKey(registration.pid()) && !isRemote(registration)) {
                PidInNamespace key = pidInNamespace(registration);
                if (!fromOtherNamespace(key)) {
                    group(key, registration, firstOnPid, runningOnLivePid);
                }
            }
        }
        for (List<Registration> twins : byRuntimeId.values()) {
            if (twins.stream().distinct().count() > 1) {
                conflicting.addAll(twins);
            }
        }
        for (List<Registration> claims : runningOnLivePid.values()) {
            if (claims.stream().map(Classification::claimedMember).distinct().count() > 1) {
                conflicting.addAll(claims);
            }
        }
        for (Registration registration : interpretable) {
            if (conflicting.contains(registration)) {
                malformed.add(new MalformedRegistration(registration.runtimeId(), MalformedReason.CONFLICTING_CLAIMS));
            } else {
                registrations.add(registration);
            }
        }
    }

    /** Adds {@code registration} to its key's group in {@code groups} once the key is met a second time. */
    private static <K> void group(K key, Registration registration, Map<K, Registration> first,
            Map<K, List<Registration>> groups) {
        Registration earlier = first.putIfAbsent(key, registration);
        if (earlier != null) {
            groups.computeIfAbsent(key, k -> new ArrayList<>(List.of(earlier))).add(registration);
        }
    }

    /** Both namespaces known and different: its pid names another process here, or none. */
    private boolean fromOtherNamespace(PidInNamespace key) {
        return ownPidNamespace != null && !ownPidNamespace.equals(key.namespace());
    }

    /** Rule 0: a row of another host, which this answerer can judge by its lease alone. */
    private boolean isRemote(Registration registration) {
        return HostId.differ(registration.hostId(), ownHostId);
    }

    private void judgeRemoteRegistrations() {
        List<Registration> remote = registrations.stream().filter(this::isRemote).toList();
        RemoteRows.judge(remote, roster.binding(), lease, registryNow, stale, remoteInstances);
    }

    Verdict verdict(RegistrySummary registry, ListingSummary listing, ObservationSummary observationSummary) {
        judgeRemoteRegistrations();
        checkRunningRegistrations();
        assignLiveRegistrations();

        List<MemberReport> members = roster.members().stream()
                .map(member -> {
                    List<Instance> found = sorted(instances.get(member), VerdictOrder.INSTANCES);
                    return new MemberReport(member, MemberState.of(found.size()), found);
                })
                .sorted(VerdictOrder.MEMBER_REPORTS)
                .toList();
        List<Instance> allInstances = members.stream().flatMap(report -> report.instances().stream()).toList();
        List<UnregisteredProcess> unregistered = unregisteredProcesses();
        Agreement cohort = Agreement.of(allInstances, Instance::cohortId);
        Agreement revision = Agreement.of(allInstances, Instance::startupHead);
        List<MalformedRegistration> malformedSorted = sorted(malformed, VerdictOrder.MALFORMED);
        List<FlaggedRegistration> unverifiedSorted = sorted(unverified, VerdictOrder.FLAGGED);
        List<FlaggedRegistration> unexpectedSorted = sorted(unexpected, VerdictOrder.FLAGGED);
        List<OrphanedInstance> orphanedSorted = sorted(orphaned, VerdictOrder.ORPHANED);
        List<RemoteInstance> remoteSorted = sorted(remoteInstances, VerdictOrder.REMOTE);
        List<RemoteInstance> remoteMembers = remoteSorted.stream()
                .filter(remote -> instances.containsKey(RemoteRows.identityOf(remote.instance()))).toList();
        List<BlockedReason> blocked = new BlockedReasons()
                .unbelievable(malformedSorted, unregistered, unverifiedSorted)
                .agreements(allInstances, cohort, revision)
                .orphans(orphanedSorted)
                .members(Verdict.duplicatesOf(members), Verdict.missingOf(members), unexpectedSorted)
                .remote(remoteMembers)
                .inPriorityOrder();

        return Verdict.builder()
                .blockedReasons(blocked)
                .expectedMemberCount(roster.members().size())
                .members(members)
                .unexpectedMembers(unexpectedSorted)
                .staleRegistrations(sorted(stale, VerdictOrder.FLAGGED))
                .unverifiedRegistrations(unverifiedSorted)
                .malformedRegistrations(malformedSorted)
                .orphanedInstances(orphanedSorted)
                .remoteInstances(remoteSorted)
                .unregisteredProcesses(unregistered)
                .cohort(cohort)
                .revision(revision)
                .registry(registry)
                .processListing(listing)
                .observation(observationSummary)
                .build();
    }

    /**
     * Rules 1-6 of the contract for every interpretable running row, first rule that applies wins. A row
     * from another pid namespace is set aside before its pid is looked up here, since that pid
     * names another process (or none) in this namespace: it must neither go stale as exited or
     * reused nor count as live. One process is one instance within its own pid namespace, so only
     * rows of the same namespace supersede each other.
     */
    private void checkRunningRegistrations() {
        List<Registration> running = new ArrayList<>();
        List<PidInNamespace> keys = new ArrayList<>();
        Map<PidInNamespace, Registration> newestOnPid = new HashMap<>();
        for (Registration registration : registrations) {
            if (registration.isRunning() && !isRemote(registration)) {
                PidInNamespace key = pidInNamespace(registration);
                running.add(registration);
                keys.add(key);
                newestOnPid.merge(key, registration, (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b);
            }
        }
        for (int i = 0; i < running.size(); i++) {
            Registration registration = running.get(i);
            PidInNamespace key = keys.get(i);
            // Both known and different: a row without a recorded namespace keys as the answerer's.
            boolean otherNamespace = fromOtherNamespace(key);
            ObservedProcess process = otherNamespace ? null : processes.get(registration.pid());
            Instance instance = Instance.of(registration, process);
            if (newestOnPid.get(key) != registration) {
                stale.add(new FlaggedRegistration(instance, StaleReason.SUPERSEDED));
            } else if (fromPreviousBoot(registration)) {
                stale.add(new FlaggedRegistration(instance, StaleReason.PREVIOUS_BOOT));
            } else if (otherNamespace) {
                unverified.add(new FlaggedRegistration(instance, UnverifiedReason.OTHER_PID_NAMESPACE));
            } else if (process == null) {
                stale.add(new FlaggedRegistration(instance, StaleReason.PROCESS_EXITED));
            } else if (process.startedAt() == null) {
                unverified.add(new FlaggedRegistration(instance, UnverifiedReason.PROCESS_START_UNKNOWN));
            } else if (!process.matchesServer()) {
                // Rule 4c: any live process (pid 1, a sleep) is not evidence that a server runs.
                unverified.add(new FlaggedRegistration(instance, UnverifiedReason.NOT_A_SERVER_PROCESS));
            } else if (pidReused(registration, process)) {
                stale.add(new FlaggedRegistration(instance, StaleReason.PID_REUSED));
            } else {
                live.add(registration);
            }
        }
    }

    /** A row without a recorded namespace is taken to be from the answerer's, as before namespaces were recorded. */
    private PidInNamespace pidInNamespace(Registration registration) {
        String recorded = registration.pidNamespace();
        return new PidInNamespace(registration.pid(), isBlank(recorded) ? ownPidNamespace : Text.strip(recorded));
    }

    private boolean fromPreviousBoot(Registration registration) {
        String recorded = registration.bootId();
        String observed = observation.bootId();
        return !isBlank(recorded) && !isBlank(observed) && !Text.strip(recorded).equalsIgnoreCase(Text.strip(observed));
    }

    /** Started after it registered (to the whole second), or not the start the row recorded. */
    private static boolean pidReused(Registration registration, ObservedProcess process) {
        boolean startedAfterRegistering =
                process.startedAt().truncatedTo(ChronoUnit.SECONDS).isAfter(registration.registeredAt());
        boolean startDisagrees = registration.processStartedAt() != null
                && ObservedProcess.startsDisagree(registration.processStartedAt(), process.startedAt());
        return startedAfterRegistering || startDisagrees;
    }

    private void assignLiveRegistrations() {
        for (Registration registration : live) {
            Instance instance = Instance.of(registration, processes.get(registration.pid()));
            if (!roster.binding().equals(registration.binding())) {
                unexpected.add(new FlaggedRegistration(instance, UnexpectedReason.BINDING_MISMATCH));
            } else if (!instances.containsKey(registration.identity())) {
                unexpected.add(new FlaggedRegistration(instance, UnexpectedReason.NOT_IN_ROSTER));
            } else {
                // An orphan stays an instance: it still counts for duplicates, cohorts and revisions.
                instances.get(registration.identity()).add(instance);
                OrphanedInstance.of(registration, instance, processes).ifPresent(orphaned::add);
            }
        }
    }

    private List<UnregisteredProcess> unregisteredProcesses() {
        Set<Long> accounted = new HashSet<>();
        live.forEach(registration -> accounted.add(registration.pid()));
        unverified.forEach(flagged -> accounted.add(flagged.instance().pid()));
        Set<Long> stoppedPids = registrations.stream()
                .filter(registration -> registration.status() == RegistrationStatus.STOPPED && !isRemote(registration))
                .map(Registration::pid)
                .collect(Collectors.toSet());
        return processes.values().stream()
                .filter(process -> process.matchesServer() && !accounted.contains(process.pid()))
                .map(process -> new UnregisteredProcess(process.pid(), process.startedAt(),
                        process.commandLine(), stoppedPids.contains(process.pid())
                                ? UnregisteredReason.REGISTRATION_STOPPED
                                : UnregisteredReason.NO_REGISTRATION))
                .sorted(VerdictOrder.UNREGISTERED)
                .toList();
    }

    /** What a row claims its process is: a member of a fleet bound to a repository. */
    private static List<Object> claimedMember(Registration registration) {
        return List.of(registration.identity(), registration.binding());
    }

    private static boolean isBlank(String text) {
        return Text.isBlank(text);
    }

    private static <T> List<T> sorted(Collection<T> items, Comparator<? super T> order) {
        return items.stream().sorted(order).toList();
    }

    /**
     * A pid means one process only within one pid namespace (null: unknown, taken as the answerer's).
     * Its equals and hashCode are written out: a record's own are linked at their first call through
     * method handles, which a cold JVM interprets (10,000 rows: some 50 ms for this key alone).
     */
    private record PidInNamespace(long pid, String namespace) {
        @Override
        public boolean equals(Object other) {
            return other instanceof PidInNamespace key && key.pid == pid && Objects.equals(key.namespace, namespace);
        }

        @Override
        public int hashCode() {
            return 31 * Long.hashCode(pid) + Objects.hashCode(namespace);
        }
    }
}
