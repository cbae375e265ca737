package dev.fleet.domain.verdict;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Text;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The contract as one pure function: snapshot in, verdict out. No clock, no I/O, no randomness, and
 * the order in which rows or processes arrive never matters.
 */
public final class FleetClassifier {

    /** Newest first: later {@code registered_at}, then greater {@code runtime_id}. */
    private static final Comparator<Registration> NEWEST_FIRST = Comparator
            .comparing(Registration::registeredAt)
            .thenComparing(Registration::runtimeId)
            .reversed();

    private FleetClassifier() {
    }

    public static Verdict classify(Snapshot snapshot) {
        Verdict verdict = unsealed(snapshot);
        return verdict.withDigest(VerdictDigest.of(verdict));
    }

    /**
     * {@link #classify}, with the verdict's canonical JSON ({@link VerdictDocument#canonicalJson}),
     * for an answerer that shows it: the digest is taken while the JSON is written, so the
     * document is walked and encoded once instead of twice.
     */
    public static JsonVerdict classifyWithJson(Snapshot snapshot) {
        return VerdictDocument.seal(unsealed(snapshot));
    }

    /** The verdict without its digest. */
    private static Verdict unsealed(Snapshot snapshot) {
        RegistryRead registry = snapshot.registry();
        ProcessObservation observation = snapshot.observation();
        Map<Long, ObservedProcess> processes = indexByPid(observation.processes());
        RegistrySummary registrySummary = registry instanceof RegistryRead.Unreadable unreadable
                ? new RegistrySummary(false, unreadable.reason(), unreadable.detail(), 0)
                : new RegistrySummary(true, null, null, registry.rows().size());
        ListingSummary listingSummary = new ListingSummary(observation.available(), observation.reason(),
                (int) processes.values().stream().filter(ObservedProcess::matchesServer).count());
        ObservationSummary observationSummary = new ObservationSummary(snapshot.observedAt(), observation.bootId(),
                observation.hostname(), observation.pidNamespace(), snapshot.registryPath(), snapshot.answeredBy());

        if (!registry.readable() || !observation.available()) {
            return nothingEstablished(snapshot, registrySummary, listingSummary, observationSummary);
        }
        return new Classification(snapshot.roster(), registry.rows(), observation, processes)
                .verdict(registrySummary, listingSummary, observationSummary);
    }

    private static Verdict nothingEstablished(Snapshot snapshot, RegistrySummary registry, ListingSummary listing,
            ObservationSummary observation) {
        List<BlockedReason> reasons = new ArrayList<>();
        if (!registry.readable()) {
            // The path is in the observation: in the detail it would make the digest depend on how
            // each answerer spells the path to the same file.
            String detail = "registry " + registry.reason().code()
                    + (registry.detail() == null ? "" : ": " + OutsideText.cap(registry.detail()));
            reasons.add(new BlockedReason(BlockedCode.REGISTRY_UNREADABLE, detail));
        }
        if (!listing.available()) {
            reasons.add(new BlockedReason(BlockedCode.PROCESS_LISTING_UNAVAILABLE,
                    "process table " + listing.reason().code()));
        }
        return Verdict.builder()
                .blockedReasons(reasons)
                .expectedMemberCount(snapshot.roster().members().size())
                .registry(registry)
                .processListing(listing)
                .observation(observation)
                .build();
    }

    /** A pid can name one process at a time; should a listing repeat one, the choice must not depend on order. */
    private static Map<Long, ObservedProcess> indexByPid(List<ObservedProcess> processes) {
        Comparator<ObservedProcess> preferred = Comparator
                .comparing(ObservedProcess::startedAt, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::commandLine, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::user, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::matchesServer);
        Map<Long, ObservedProcess> byPid = new TreeMap<>();
        for (ObservedProcess process : processes) {
            byPid.merge(process.pid(), process, (a, b) -> preferred.compare(a, b) <= 0 ? a : b);
        }
        return byPid;
    }

    /** The working state of one classification; lives only inside {@link #classify}. */
    private static final class Classification {
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
        /** The answerer's pid namespace, trimmed; null when unknown. */
        private final String ownPidNamespace;

        Classification(Roster roster, List<RegistryRow> rows, ProcessObservation observation,
                Map<Long, ObservedProcess> processes) {
            this.roster = roster;
            this.observation = observation;
            this.ownPidNamespace = Text.strippedOrNull(observation.pidNamespace());
            this.processes = processes;
            List<Registration> interpretable = new ArrayList<>();
            for (RegistryRow row : rows) {
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
            Set<Registration> conflicting = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            Map<String, List<Registration>> byRuntimeId = new LinkedHashMap<>();
            Map<PidInNamespace, List<Registration>> runningOnLivePid = new LinkedHashMap<>();
            for (Registration registration : interpretable) {
                byRuntimeId.computeIfAbsent(registration.runtimeId(), id -> new ArrayList<>()).add(registration);
                PidInNamespace key = pidInNamespace(registration);
                if (registration.isRunning() && !fromOtherNamespace(key) && processes.containsKey(key.pid())) {
                    runningOnLivePid.computeIfAbsent(key, k -> new ArrayList<>()).add(registration);
                }
            }
            byRuntimeId.values().stream()
                    .filter(twins -> twins.stream().distinct().count() > 1)
                    .forEach(conflicting::addAll);
            runningOnLivePid.values().stream()
                    .filter(claims -> claims.stream().map(FleetClassifier::claimedMember).distinct().count() > 1)
                    .forEach(conflicting::addAll);
            for (Registration registration : interpretable) {
                if (conflicting.contains(registration)) {
                    malformed.add(new MalformedRegistration(registration.runtimeId(), MalformedReason.CONFLICTING_CLAIMS));
                } else {
                    registrations.add(registration);
                }
            }
        }

        /** Both namespaces known and different: its pid names another process here, or none. */
        private boolean fromOtherNamespace(PidInNamespace key) {
            return ownPidNamespace != null && !ownPidNamespace.equals(key.namespace());
        }

        Verdict verdict(RegistrySummary registry, ListingSummary listing, ObservationSummary observationSummary) {
            checkRunningRegistrations();
            assignLiveRegistrations();

            List<MemberReport> members = roster.members().stream()
                    .map(member -> {
                        List<Instance> found = sorted(instances.get(member), VerdictOrder.INSTANCES);
                        return new MemberReport(member, MemberState.of(found.size()), found);
                    })
                    .sorted(VerdictOrder.MEMBER_REPORTS)
                    .toList();
            List<RosterMember> missing = Verdict.missingOf(members);
            List<MemberReport> duplicates = Verdict.duplicatesOf(members);
            List<Instance> allInstances = members.stream().flatMap(report -> report.instances().stream()).toList();
            List<UnregisteredProcess> unregistered = unregisteredProcesses();

            Agreement cohort = agreement(allInstances, Instance::cohortId);
            Agreement revision = agreement(allInstances, Instance::startupHead);
            List<MalformedRegistration> malformedSorted = sorted(malformed, VerdictOrder.MALFORMED);
            List<FlaggedRegistration> unverifiedSorted = sorted(unverified, VerdictOrder.FLAGGED);
            List<FlaggedRegistration> unexpectedSorted = sorted(unexpected, VerdictOrder.FLAGGED);

            BlockedReasons blocked = new BlockedReasons();
            blocked.addIf(!malformedSorted.isEmpty(), BlockedCode.MALFORMED_REGISTRATION, () -> join(malformedSorted,
                    row -> "runtime_id " + OutsideText.cap(row.runtimeId()) + " (" + row.reason().code() + ")"));
            blocked.addIf(!unregistered.isEmpty(), BlockedCode.UNREGISTERED_PROCESS, () -> join(unregistered,
                    process -> "pid " + process.pid() + " (" + process.reason().code() + ")"));
            for (UnverifiedReason reason : UnverifiedReason.values()) {
                List<FlaggedRegistration> flagged = unverifiedSorted.stream()
                        .filter(registration -> registration.reason() == reason).toList();
                blocked.addIf(!flagged.isEmpty(), reason.blocks(), () -> join(flagged,
                        registration -> describe(registration.instance())));
            }
            blocked.addIf(!allInstances.isEmpty() && cohort.single() == null, BlockedCode.COHORT_UNKNOWN,
                    () -> "no cohort_id: " + join(unknown(allInstances, Instance::cohortId), FleetClassifier::describe));
            blocked.addIf(!allInstances.isEmpty() && revision.single() == null, BlockedCode.REVISION_UNKNOWN,
                    () -> "no startup_head: "
                            + join(unknown(allInstances, Instance::startupHead), FleetClassifier::describe));
            blocked.addIf(!duplicates.isEmpty(), BlockedCode.DUPLICATE_MEMBER, () -> join(duplicates,
                    report -> name(report.member()) + " x" + report.instances().size() + " (pids "
                            + join(report.instances(), instance -> String.valueOf(instance.pid())) + ")"));
            blocked.addIf(!missing.isEmpty(), BlockedCode.MISSING_MEMBER, () -> join(missing, FleetClassifier::name));
            blocked.addIf(!unexpectedSorted.isEmpty(), BlockedCode.UNEXPECTED_MEMBER, () -> join(unexpectedSorted,
                    flagged -> describe(flagged.instance()) + " (" + flagged.reason().code() + ")"));
            blocked.addIf(Boolean.FALSE.equals(cohort.single()), BlockedCode.COHORT_SPLIT,
                    () -> "cohorts " + join(cohort.values(), OutsideText::cap));
            blocked.addIf(Boolean.FALSE.equals(revision.single()), BlockedCode.REVISION_SPLIT,
                    () -> "revisions " + join(revision.values(), OutsideText::cap));

            return Verdict.builder()
                    .blockedReasons(blocked.inPriorityOrder())
                    .expectedMemberCount(roster.members().size())
                    .members(members)
                    .unexpectedMembers(unexpectedSorted)
                    .staleRegistrations(sorted(stale, VerdictOrder.FLAGGED))
                    .unverifiedRegistrations(unverifiedSorted)
                    .malformedRegistrations(malformedSorted)
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
            List<Registration> running = registrations.stream().filter(Registration::isRunning).toList();
            Map<PidInNamespace, Registration> newestOnPid = running.stream().collect(Collectors.toMap(
                    this::pidInNamespace, Function.identity(),
                    (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b));
            for (Registration registration : running) {
                PidInNamespace key = pidInNamespace(registration);
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
                    instances.get(registration.identity()).add(instance);
                }
            }
        }

        private List<UnregisteredProcess> unregisteredProcesses() {
            Set<Long> accounted = new HashSet<>();
            live.forEach(registration -> accounted.add(registration.pid()));
            unverified.forEach(flagged -> accounted.add(flagged.instance().pid()));
            Set<Long> stoppedPids = registrations.stream()
                    .filter(registration -> registration.status() == RegistrationStatus.STOPPED)
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
    }

    /** Blocked reasons, kept in {@link BlockedCode} priority order whatever order they are added in. */
    private static final class BlockedReasons {
        private final List<BlockedReason> reasons = new ArrayList<>();

        void addIf(boolean applies, BlockedCode code, java.util.function.Supplier<String> detail) {
            if (applies) {
                reasons.add(new BlockedReason(code, detail.get()));
            }
        }

        List<BlockedReason> inPriorityOrder() {
            reasons.sort(Comparator.comparing(BlockedReason::code));
            return reasons;
        }
    }

    /** What a row claims its process is: a member of a fleet bound to a repository. */
    private static List<Object> claimedMember(Registration registration) {
        return List.of(registration.identity(), registration.binding());
    }

    /** A pid means one process only within one pid namespace (null: unknown, taken as the answerer's). */
    private record PidInNamespace(long pid, String namespace) {
    }

    /** Whether every instance knows the value and all agree on it; matching revisions never make a cohort. */
    private static Agreement agreement(List<Instance> instances, Function<Instance, String> value) {
        if (instances.isEmpty()) {
            return Agreement.NONE;
        }
        List<String> known = distinctKnown(instances, value);
        return new Agreement(unknown(instances, value).isEmpty() ? known.size() == 1 : null, known);
    }

    private static List<Instance> unknown(List<Instance> instances, Function<Instance, String> value) {
        return instances.stream().filter(instance -> isBlank(value.apply(instance))).toList();
    }

    private static List<String> distinctKnown(List<Instance> instances, Function<Instance, String> value) {
        return instances.stream().map(value).filter(text -> !isBlank(text)).distinct().sorted().toList();
    }

    private static boolean isBlank(String text) {
        return Text.isBlank(text);
    }

    private static <T> List<T> sorted(Collection<T> items, Comparator<? super T> order) {
        return items.stream().sorted(order).toList();
    }

    /**
     * The first {@value VerdictLists#MAX_ENTRIES} items described, and how many more there are: a
     * detail names what the lists show, and stays bounded whatever the registry holds.
     */
    private static <T> String join(List<T> items, Function<T, String> describe) {
        String shown = items.stream().limit(VerdictLists.MAX_ENTRIES).map(describe).collect(Collectors.joining(", "));
        int more = items.size() - VerdictLists.MAX_ENTRIES;
        return more > 0 ? shown + " and " + more + " more" : shown;
    }

    private static String name(RosterMember member) {
        return member.namespace() + "/" + member.profile();
    }

    /** Names a registration in a detail; its texts come from the registry, so each is capped. */
    private static String describe(Instance instance) {
        return OutsideText.cap(instance.namespace()) + "/" + OutsideText.cap(Objects.toString(instance.profile(), "?"))
                + " pid " + instance.pid();
    }
}
