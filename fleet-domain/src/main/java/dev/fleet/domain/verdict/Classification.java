package dev.fleet.domain.verdict;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.Lease;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.SecretMask;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Text;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The working state of one classification ({@link FleetClassifier#classify}), step by step: rows
 * interpreted and conflicting claims set aside ({@link ConflictingClaims}), rows of other hosts judged by
 * their lease ({@link RemoteRows}), local running rows by the contract's rules ({@link RunningRowRule}),
 * the processes live ones serve ({@link ServedProcesses}), live ones by what they are an instance of
 * ({@link LiveRowRule}), and the verdict put together. The
 * rules are named values listed in those classes; this class only applies them, in order.
 */
final class Classification {

    /** Newest first: later {@code registered_at}, then greater {@code runtime_id}. */
    private static final Comparator<Registration> NEWEST_FIRST = Comparator
            .comparing((Registration registration) -> registration.tenure().registeredAt())
            .thenComparing(Registration::runtimeId)
            .reversed();

    private final Roster roster;
    private final Map<Long, ObservedProcess> processes;
    private final Answerer answerer;
    private final Lease lease;
    private final Instant registryNow;
    private final List<Registration> registrations = new ArrayList<>();
    private final List<MalformedRegistration> malformed = new ArrayList<>();
    private final List<Registration> live = new ArrayList<>();
    private final List<FlaggedRegistration> stale = new ArrayList<>();
    private final List<FlaggedRegistration> unverified = new ArrayList<>();
    private final List<FlaggedRegistration> unexpected = new ArrayList<>();
    private final Map<RosterMember, List<Instance>> instances = new HashMap<>();
    private final List<OrphanedInstance> orphaned = new ArrayList<>();
    private final List<RemoteInstance> remoteInstances = new ArrayList<>();
    private ServedProcesses served;

    Classification(Snapshot snapshot, Map<Long, ObservedProcess> processes) {
        this.roster = snapshot.roster();
        this.processes = processes;
        ProcessObservation observation = snapshot.observation();
        this.answerer = new Answerer(Text.strippedOrNull(observation.pidNamespace()), snapshot.hostId(),
                observation.bootId());
        this.lease = snapshot.lease();
        this.registryNow = snapshot.registryNow();
        List<Registration> interpretable = new ArrayList<>();
        for (RegistryRow row : snapshot.registry().rows()) {
            InterpretedRow interpreted = row.interpret();
            if (interpreted instanceof Registration registration) {
                interpretable.add(registration);
            } else {
                malformed.add((MalformedRegistration) interpreted);
            }
        }
        ConflictingClaims.setAside(interpretable, processes, answerer, registrations, malformed);
        roster.members().forEach(member -> instances.put(member, new ArrayList<>()));
    }

    private void judgeRemoteRegistrations() {
        List<Registration> remote = registrations.stream().filter(answerer::isRemote).toList();
        RemoteRows.judge(remote, roster.binding(), lease, registryNow, stale, remoteInstances);
    }

    Verdict verdict(RegistrySummary registry, ListingSummary listing, ObservationSummary observationSummary) {
        judgeRemoteRegistrations();
        checkRunningRegistrations();
        served = ServedProcesses.of(live, processes, roster);
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
     * Every interpretable local running row, judged by the first {@link RunningRowRule} that applies,
     * or live. A row from another pid namespace is not looked up here, since its pid names another
     * process (or none) in this namespace; one process is one instance within its own pid namespace,
     * so only rows of the same namespace supersede each other.
     */
    private void checkRunningRegistrations() {
        List<Registration> running = new ArrayList<>();
        List<PidInNamespace> keys = new ArrayList<>();
        Map<PidInNamespace, Registration> newestOnPid = new HashMap<>();
        for (Registration registration : registrations) {
            if (registration.isRunning() && !answerer.isRemote(registration)) {
                PidInNamespace key = answerer.keyOf(registration);
                running.add(registration);
                keys.add(key);
                newestOnPid.merge(key, registration, (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b);
            }
        }
        for (int i = 0; i < running.size(); i++) {
            Registration registration = running.get(i);
            PidInNamespace key = keys.get(i);
            boolean otherNamespace = answerer.elsewhere(key);
            ObservedProcess process = otherNamespace ? null : processes.get(registration.process().pid());
            ObservedProcess server = otherNamespace || registration.server().pid() == null ? null
                    : processes.get(registration.server().pid());
            RunningRowRule rule = RunningRowRule.firstApplying(new RunningRow(registration, process,
                    newestOnPid.get(key) == registration, otherNamespace, answerer.fromPreviousBoot(registration),
                    server));
            if (rule == null) {
                live.add(registration);
            } else {
                (rule.makesStale() ? stale : unverified)
                        .add(new FlaggedRegistration(Instance.of(registration, process), rule.reason()));
            }
        }
    }

    /** Each live row an instance or unexpected; a member's server registering itself is neither, but served. */
    private void assignLiveRegistrations() {
        for (Registration registration : live) {
            if (served.isServersOwnRow(registration)) {
                continue;
            }
            Instance instance = Instance.of(registration, processes.get(registration.process().pid()),
                    served.listedUnder(registration));
            LiveRowRule rule = LiveRowRule.firstApplying(registration, roster);
            if (rule != null) {
                unexpected.add(new FlaggedRegistration(instance, rule.reason()));
            } else {
                // An orphan stays an instance: it still counts for duplicates, cohorts and revisions.
                instances.get(registration.identity()).add(instance);
                OrphanedInstance.of(registration, instance, processes).ifPresent(orphaned::add);
            }
        }
    }

    private List<UnregisteredProcess> unregisteredProcesses() {
        Set<Long> accounted = new HashSet<>();
        live.forEach(registration -> accounted.add(registration.process().pid()));
        unverified.forEach(flagged -> accounted.add(flagged.instance().pid()));
        Set<Long> stoppedPids = registrations.stream()
                .filter(registration -> registration.tenure().status() == RegistrationStatus.STOPPED
                        && !answerer.isRemote(registration))
                .map(registration -> registration.process().pid())
                .collect(Collectors.toSet());
        return processes.values().stream()
                .filter(process -> process.matchesServer() && !accounted.contains(process.pid())
                        && !served.isServed(process.pid()))
                .map(process -> new UnregisteredProcess(process.pid(), process.startedAt(),
                        SecretMask.commandLine(process.commandLine()), stoppedPids.contains(process.pid())
                                ? UnregisteredReason.REGISTRATION_STOPPED
                                : UnregisteredReason.NO_REGISTRATION))
                .sorted(VerdictOrder.UNREGISTERED)
                .toList();
    }

    private static <T> List<T> sorted(Collection<T> items, Comparator<? super T> order) {
        return items.stream().sorted(order).toList();
    }
}
