package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The classification of a snapshot (docs/CONTRACT.md). Every list is already in its deterministic order;
 * {@link VerdictDocument} gives the field names and {@link VerdictDigest} the digest. What follows
 * from other fields (the gate, completeness, counts, missing and duplicate members) is derived, not
 * stored, so it can never disagree with them. Built by name through {@link #builder()}.
 */
public record Verdict(
        List<BlockedReason> blockedReasons,
        int expectedMemberCount,
        List<MemberReport> members,
        List<FlaggedRegistration> unexpectedMembers,
        List<FlaggedRegistration> staleRegistrations,
        List<FlaggedRegistration> unverifiedRegistrations,
        List<MalformedRegistration> malformedRegistrations,
        List<OrphanedInstance> orphanedInstances,
        List<RemoteInstance> remoteInstances,
        List<UnregisteredProcess> unregisteredProcesses,
        Agreement cohort,
        Agreement revision,
        RegistrySummary registry,
        ListingSummary processListing,
        String verdictDigest,
        ObservationSummary observation) {

    public Verdict {
        blockedReasons = List.copyOf(blockedReasons);
        members = List.copyOf(members);
        unexpectedMembers = List.copyOf(unexpectedMembers);
        staleRegistrations = List.copyOf(staleRegistrations);
        unverifiedRegistrations = List.copyOf(unverifiedRegistrations);
        malformedRegistrations = List.copyOf(malformedRegistrations);
        orphanedInstances = List.copyOf(orphanedInstances);
        remoteInstances = List.copyOf(remoteInstances);
        unregisteredProcesses = List.copyOf(unregisteredProcesses);
        Objects.requireNonNull(cohort, "cohort");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(processListing, "processListing");
        Objects.requireNonNull(observation, "observation");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when no blocked reason applies: the only way the gate opens. */
    public boolean mutationGateSatisfied() {
        return blockedReasons.isEmpty();
    }

    /** False when any blocked reason says the inventory itself could not be established. */
    public boolean inventoryComplete() {
        return blockedReasons.stream().noneMatch(reason -> reason.code().leavesInventoryIncomplete());
    }

    /** The first blocked code in priority order, or null when the gate is satisfied. */
    public BlockedCode blockedReason() {
        return blockedReasons.isEmpty() ? null : blockedReasons.get(0).code();
    }

    /** Instances of roster members, duplicates included: a sixth process shows as 6 of 5. */
    public int runningMemberCount() {
        return members.stream().mapToInt(report -> report.instances().size()).sum();
    }

    public List<RosterMember> missingMembers() {
        return missingOf(members);
    }

    public List<MemberReport> duplicateMembers() {
        return duplicatesOf(members);
    }

    static List<RosterMember> missingOf(List<MemberReport> members) {
        return members.stream().filter(report -> report.state() == MemberState.MISSING).map(MemberReport::member)
                .toList();
    }

    static List<MemberReport> duplicatesOf(List<MemberReport> members) {
        return members.stream().filter(report -> report.state() == MemberState.DUPLICATE).toList();
    }

    /** As shown: true, false or null ({@link Agreement.Single#shown}). */
    public Boolean singleCohort() {
        return cohort.single().shown();
    }

    public List<String> cohortIds() {
        return cohort.values();
    }

    /** As shown: true, false or null ({@link Agreement.Single#shown}). */
    public Boolean singleRevision() {
        return revision.single().shown();
    }

    public List<String> startupHeads() {
        return revision.values();
    }

    /**
     * For each list the document shows capped ({@link VerdictLists}), its name and how many entries were
     * left out, in document order; empty when every list is shown whole. A member's instances are named
     * by the member's position in its shown list, as {@code members[0].instances}, and an entry's served pids by
     * its position too, as {@code members[0].instances[1].served_pids}.
     */
    public Map<String, Integer> omittedEntries() {
        Map<String, Integer> omitted = new LinkedHashMap<>();
        count(omitted, "members", members);
        List<MemberReport> shownMembers = VerdictLists.shown(members);
        for (int i = 0; i < shownMembers.size(); i++) {
            countInstances(omitted, "members[" + i + "].instances", shownMembers.get(i).instances());
        }
        count(omitted, "missing_members", missingMembers());
        List<MemberReport> duplicates = duplicateMembers();
        count(omitted, "duplicate_members", duplicates);
        List<MemberReport> shownDuplicates = VerdictLists.shown(duplicates);
        for (int i = 0; i < shownDuplicates.size(); i++) {
            countInstances(omitted, "duplicate_members[" + i + "].instances", shownDuplicates.get(i).instances());
        }
        countInstances(omitted, "unexpected_members",
                unexpectedMembers.stream().map(FlaggedRegistration::instance).toList());
        count(omitted, "stale_registrations", staleRegistrations);
        count(omitted, "unverified_registrations", unverifiedRegistrations);
        count(omitted, "malformed_registrations", malformedRegistrations);
        countInstances(omitted, "orphaned_instances",
                orphanedInstances.stream().map(OrphanedInstance::instance).toList());
        count(omitted, "remote_instances", remoteInstances);
        count(omitted, "unregistered_processes", unregisteredProcesses);
        count(omitted, "cohort_ids", cohortIds());
        count(omitted, "startup_heads", startupHeads());
        return omitted;
    }

    /** A list of instance entries named {@code name}, then each shown entry's {@code served_pids}. */
    private static void countInstances(Map<String, Integer> omitted, String name, List<Instance> instances) {
        count(omitted, name, instances);
        List<Instance> shown = VerdictLists.shown(instances);
        for (int i = 0; i < shown.size(); i++) {
            count(omitted, name + "[" + i + "].served_pids", shown.get(i).servedPids());
        }
    }

    private static void count(Map<String, Integer> omitted, String name, List<?> list) {
        int left = VerdictLists.omitted(list);
        if (left > 0) {
            omitted.put(name, left);
        }
    }

    /** The same verdict carrying {@code digest}; the classifier computes it from everything else. */
    Verdict withDigest(String digest) {
        return new Verdict(blockedReasons, expectedMemberCount, members, unexpectedMembers, staleRegistrations,
                unverifiedRegistrations, malformedRegistrations, orphanedInstances, remoteInstances,
                unregisteredProcesses, cohort, revision, registry, processListing, digest, observation);
    }

    /** Named parts of a verdict; every list defaults to empty and each agreement to {@link Agreement#NONE}. */
    public static final class Builder {
        private List<BlockedReason> blockedReasons = List.of();
        private int expectedMemberCount;
        private List<MemberReport> members = List.of();
        private List<FlaggedRegistration> unexpectedMembers = List.of();
        private List<FlaggedRegistration> staleRegistrations = List.of();
        private List<FlaggedRegistration> unverifiedRegistrations = List.of();
        private List<MalformedRegistration> malformedRegistrations = List.of();
        private List<OrphanedInstance> orphanedInstances = List.of();
        private List<RemoteInstance> remoteInstances = List.of();
        private List<UnregisteredProcess> unregisteredProcesses = List.of();
        private Agreement cohort = Agreement.NONE;
        private Agreement revision = Agreement.NONE;
        private RegistrySummary registry;
        private ListingSummary processListing;
        private ObservationSummary observation;

        private Builder() {
        }

        public Builder blockedReasons(List<BlockedReason> value) {
            blockedReasons = value;
            return this;
        }

        public Builder expectedMemberCount(int value) {
            expectedMemberCount = value;
            return this;
        }

        public Builder members(List<MemberReport> value) {
            members = value;
            return this;
        }

        public Builder unexpectedMembers(List<FlaggedRegistration> value) {
            unexpectedMembers = value;
            return this;
        }

        public Builder staleRegistrations(List<FlaggedRegistration> value) {
            staleRegistrations = value;
            return this;
        }

        public Builder unverifiedRegistrations(List<FlaggedRegistration> value) {
            unverifiedRegistrations = value;
            return this;
        }

        public Builder malformedRegistrations(List<MalformedRegistration> value) {
            malformedRegistrations = value;
            return this;
        }

        public Builder orphanedInstances(List<OrphanedInstance> value) {
            orphanedInstances = value;
            return this;
        }

        public Builder remoteInstances(List<RemoteInstance> value) {
            remoteInstances = value;
            return this;
        }

        public Builder unregisteredProcesses(List<UnregisteredProcess> value) {
            unregisteredProcesses = value;
            return this;
        }

        public Builder cohort(Agreement value) {
            cohort = value;
            return this;
        }

        public Builder revision(Agreement value) {
            revision = value;
            return this;
        }

        public Builder registry(RegistrySummary value) {
            registry = value;
            return this;
        }

        public Builder processListing(ListingSummary value) {
            processListing = value;
            return this;
        }

        public Builder observation(ObservationSummary value) {
            observation = value;
            return this;
        }

        /** The verdict without its digest; {@link FleetClassifier} seals it with one. */
        Verdict build() {
            return new Verdict(blockedReasons, expectedMemberCount, members, unexpectedMembers, staleRegistrations,
                    unverifiedRegistrations, malformedRegistrations, orphanedInstances, remoteInstances,
                    unregisteredProcesses, cohort,
                    revision, registry, processListing, null, observation);
        }
    }
}
