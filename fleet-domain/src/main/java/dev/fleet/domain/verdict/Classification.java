package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.Roster;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * What the steps of {@link FleetClassifier#classify} decided, each list in no particular order; {@link
 * #verdict} puts them in the contract's order ({@link VerdictOrder}), reports each member and gives the
 * blocked reasons ({@link BlockedReasons}). Since every list is sorted here, by an order total over all an
 * entry shows, the order rows or processes arrived in never reaches the verdict.
 *
 * @param malformed rows that could not be read as a registration, and rows that contradict another
 * @param stale rows of this host the running-row rules set aside as stale, and rows of others whose lease expired
 * @param unverified rows of this host the running-row rules could neither confirm nor dismiss
 * @param live where the live rows went: instances of members, unexpected members, orphans
 * @param remote live rows of other hosts
 * @param unregistered server-looking processes no row accounts for, already in order
 */
record Classification(List<MalformedRegistration> malformed, List<FlaggedRegistration> stale,
        List<FlaggedRegistration> unverified, LiveRows.Assigned live, List<RemoteInstance> remote,
        List<UnregisteredProcess> unregistered) {

    /** The verdict, without its digest, of a fleet whose roster is {@code roster}. */
    Verdict verdict(Roster roster, RegistrySummary registry, ListingSummary listing, ObservationSummary observation) {
        List<MemberReport> members = roster.members().stream()
                .map(member -> {
                    List<Instance> found = sorted(live.instancesOf(member), VerdictOrder.INSTANCES);
                    return new MemberReport(member, MemberState.of(found.size()), found);
                })
                .sorted(VerdictOrder.MEMBER_REPORTS)
                .toList();
        List<Instance> allInstances = members.stream().flatMap(report -> report.instances().stream()).toList();
        Agreement cohort = Agreement.of(allInstances, Instance::cohortId);
        Agreement revision = Agreement.of(allInstances, Instance::startupHead);
        List<MalformedRegistration> malformedSorted = sorted(malformed, VerdictOrder.MALFORMED);
        List<FlaggedRegistration> unverifiedSorted = sorted(unverified, VerdictOrder.FLAGGED);
        List<FlaggedRegistration> unexpectedSorted = sorted(live.unexpected(), VerdictOrder.FLAGGED);
        List<OrphanedInstance> orphanedSorted = sorted(live.orphaned(), VerdictOrder.ORPHANED);
        List<RemoteInstance> remoteSorted = sorted(remote, VerdictOrder.REMOTE);
        List<RemoteInstance> remoteMembers = remoteSorted.stream()
                .filter(instance -> roster.members().contains(RemoteRows.identityOf(instance.instance()))).toList();
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
                .observation(observation)
                .build();
    }

    private static <T> List<T> sorted(Collection<T> items, Comparator<? super T> order) {
        return items.stream().sorted(order).toList();
    }
}
