package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.util.Comparator;

/**
 * The deterministic order of every verdict list: namespace, profile, pid, runtime_id, nulls last.
 * Ties (only possible between rows no real registry could hold) fall back to the canonical
 * encoding, so the order never depends on the order the evidence arrived in.
 */
final class VerdictOrder {

    private static final Comparator<String> TEXT = Comparator.nullsLast(Comparator.naturalOrder());

    static final Comparator<RosterMember> MEMBERS = Comparator
            .comparing(RosterMember::namespace, TEXT)
            .thenComparing(RosterMember::profile, TEXT)
            .thenComparing(RosterMember::role, TEXT);

    static final Comparator<MemberReport> MEMBER_REPORTS = Comparator.comparing(MemberReport::member, MEMBERS);

    static final Comparator<Instance> INSTANCES = Comparator
            .comparing(Instance::namespace, TEXT)
            .thenComparing(Instance::profile, TEXT)
            .thenComparingLong(Instance::pid)
            .thenComparing(Instance::runtimeId, TEXT)
            .thenComparing(instance -> CanonicalJson.encode(VerdictDocument.instance(instance)));

    static final Comparator<FlaggedRegistration> FLAGGED = Comparator
            .comparing(FlaggedRegistration::instance, INSTANCES)
            .thenComparing(flagged -> flagged.reason().code());

    static final Comparator<MalformedRegistration> MALFORMED = Comparator
            .comparing(MalformedRegistration::runtimeId, TEXT)
            .thenComparing(malformed -> malformed.reason().code());

    static final Comparator<UnregisteredProcess> UNREGISTERED = Comparator
            .comparingLong(UnregisteredProcess::pid)
            .thenComparing(process -> CanonicalJson.encode(VerdictDocument.unregistered(process)));

    private VerdictOrder() {
    }
}
