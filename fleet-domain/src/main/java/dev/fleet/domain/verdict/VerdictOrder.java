package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The deterministic order of every verdict list, the one way the verdict orders anything: namespace,
 * profile, pid, runtime_id, nulls last. Ties (only possible between rows no real registry could hold)
 * are broken by the remaining fields in document order, text as the verdict shows it (capped), so
 * the order is total over everything an entry shows: two entries it cannot tell apart encode to the
 * same bytes, and the order never depends on the order the evidence arrived in.
 */
final class VerdictOrder {

    /** Text from outside the program, as shown: capped ({@link OutsideText}), then in natural order, nulls last. */
    private static final Comparator<String> OUTSIDE_TEXT = Comparator.comparing(OutsideText::cap,
            Comparator.nullsLast(Comparator.naturalOrder()));
    private static final Comparator<Instant> INSTANT = Comparator.nullsLast(Comparator.naturalOrder());

    /** Text as stored, in natural order, nulls last: the leading keys. */
    private static final Comparator<String> TEXT = Comparator.nullsLast(Comparator.naturalOrder());

    /** An instance's fields after runtime_id, in document order. */
    private static final Comparator<Instance> INSTANCE_TIES = Comparator
            .comparing(Instance::role, OUTSIDE_TEXT)
            .thenComparing(Instance::cohortId, OUTSIDE_TEXT)
            .thenComparing(Instance::cohortSource, OUTSIDE_TEXT)
            .thenComparing(Instance::startupHead, OUTSIDE_TEXT)
            .thenComparing(Instance::transport, OUTSIDE_TEXT)
            .thenComparing(Instance::clientProvenance, OUTSIDE_TEXT)
            .thenComparing(Instance::registeredAt, INSTANT)
            .thenComparing(Instance::lastHeartbeatAt, INSTANT)
            .thenComparing(Instance::observedProcessStartedAt, INSTANT)
            .thenComparing(Instance::recordedProcessStartedAt, INSTANT)
            .thenComparing(Instance::serverPid, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(Instance::serverCommand, OUTSIDE_TEXT)
            .thenComparing(Instance::servedPids, VerdictOrder::comparePids);

    static final Comparator<RosterMember> MEMBERS = Comparator.comparing(RosterMember::namespace, TEXT)
            .thenComparing(RosterMember::profile, TEXT)
            .thenComparing(RosterMember::role, TEXT);

    static final Comparator<MemberReport> MEMBER_REPORTS = Comparator.comparing(MemberReport::member, MEMBERS);

    /** After namespace, profile, pid and runtime_id (then equal), the instance's other fields in document order. */
    static final Comparator<Instance> INSTANCES = Comparator.comparing(Instance::namespace, TEXT)
            .thenComparing(Instance::profile, TEXT)
            .thenComparingLong(Instance::pid)
            .thenComparing(Instance::runtimeId, TEXT)
            .thenComparing(INSTANCE_TIES);

    static final Comparator<FlaggedRegistration> FLAGGED = Comparator.comparing(FlaggedRegistration::instance, INSTANCES)
            .thenComparing(flagged -> flagged.reason().code());

    static final Comparator<MalformedRegistration> MALFORMED = Comparator
            .comparing(MalformedRegistration::runtimeId, TEXT)
            .thenComparing(malformed -> malformed.reason().code());

    /** As instances; then the parent, in document order (one instance has one row, so this never decides). */
    static final Comparator<OrphanedInstance> ORPHANED = Comparator
            .comparing(OrphanedInstance::instance, INSTANCES)
            .thenComparingLong(OrphanedInstance::parentPid)
            .thenComparing(OrphanedInstance::parentStartedAt, INSTANT);

    /** As instances, then by host. */
    static final Comparator<RemoteInstance> REMOTE = Comparator.comparing(RemoteInstance::instance, INSTANCES)
            .thenComparing(RemoteInstance::hostId, OUTSIDE_TEXT);

    /** After the pid, the process's other fields in document order. */
    static final Comparator<UnregisteredProcess> UNREGISTERED = Comparator
            .comparingLong(UnregisteredProcess::pid)
            .thenComparing(UnregisteredProcess::startedAt, INSTANT)
            .thenComparing(UnregisteredProcess::commandLine, OUTSIDE_TEXT)
            .thenComparing(process -> process.reason().code());

    /** Lists of pids, element by element, a shorter list first when it is a prefix of the other. */
    private static int comparePids(List<Long> a, List<Long> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = Long.compare(a.get(i), b.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private VerdictOrder() {
    }
}
