package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.util.List;

/**
 * The classification of a snapshot (SPEC §6). Every list is already in its deterministic order;
 * {@link VerdictDocument} gives the field names and {@link VerdictDigest} the digest.
 */
public record Verdict(
        boolean inventoryComplete,
        boolean mutationGateSatisfied,
        List<BlockedReason> blockedReasons,
        int expectedMemberCount,
        int runningMemberCount,
        List<MemberReport> members,
        List<RosterMember> missingMembers,
        List<MemberReport> duplicateMembers,
        List<FlaggedRegistration> unexpectedMembers,
        List<FlaggedRegistration> staleRegistrations,
        List<FlaggedRegistration> unverifiedRegistrations,
        List<MalformedRegistration> malformedRegistrations,
        List<UnregisteredProcess> unregisteredProcesses,
        Boolean singleCohort,
        List<String> cohortIds,
        Boolean singleRevision,
        List<String> startupHeads,
        RegistrySummary registry,
        ListingSummary processListing,
        String verdictDigest,
        ObservationSummary observation) {

    public Verdict {
        blockedReasons = List.copyOf(blockedReasons);
        members = List.copyOf(members);
        missingMembers = List.copyOf(missingMembers);
        duplicateMembers = List.copyOf(duplicateMembers);
        unexpectedMembers = List.copyOf(unexpectedMembers);
        staleRegistrations = List.copyOf(staleRegistrations);
        unverifiedRegistrations = List.copyOf(unverifiedRegistrations);
        malformedRegistrations = List.copyOf(malformedRegistrations);
        unregisteredProcesses = List.copyOf(unregisteredProcesses);
        cohortIds = List.copyOf(cohortIds);
        startupHeads = List.copyOf(startupHeads);
        if (mutationGateSatisfied && !inventoryComplete) {
            throw new IllegalStateException("a satisfied gate implies a complete inventory");
        }
    }

    /** The same verdict carrying {@code digest}; the classifier computes it from everything else. */
    Verdict withDigest(String digest) {
        return new Verdict(inventoryComplete, mutationGateSatisfied, blockedReasons, expectedMemberCount,
                runningMemberCount, members, missingMembers, duplicateMembers, unexpectedMembers, staleRegistrations,
                unverifiedRegistrations, malformedRegistrations, unregisteredProcesses, singleCohort, cohortIds,
                singleRevision, startupHeads, registry, processListing, digest, observation);
    }

    /** The first blocked code in priority order, or null when the gate is satisfied. */
    public BlockedCode blockedReason() {
        return blockedReasons.isEmpty() ? null : blockedReasons.get(0).code();
    }
}
