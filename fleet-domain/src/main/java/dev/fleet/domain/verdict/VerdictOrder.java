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

    static final Comparator<RosterMember> MEMBERS = VerdictOrder::compareMembers;

    static final Comparator<MemberReport> MEMBER_REPORTS = (a, b) -> compareMembers(a.member(), b.member());

    /** After namespace, profile, pid and runtime_id (then equal), the instance's other fields in document order. */
    static final Comparator<Instance> INSTANCES = VerdictOrder::compareInstances;

    static final Comparator<FlaggedRegistration> FLAGGED = VerdictOrder::compareFlagged;

    static final Comparator<MalformedRegistration> MALFORMED = VerdictOrder::compareMalformed;

    /** As instances; then the parent, in document order (one instance has one row, so this never decides). */
    static final Comparator<OrphanedInstance> ORPHANED = Comparator
            .comparing(OrphanedInstance::instance, INSTANCES)
            .thenComparingLong(OrphanedInstance::parentPid)
            .thenComparing(OrphanedInstance::parentStartedAt, INSTANT);

    /** As instances, then by host. */
    static final Comparator<RemoteInstance> REMOTE = Comparator.comparing(RemoteInstance::instance, INSTANCES)
            .thenComparing(RemoteInstance::hostId, OUTSIDE_TEXT);

    /** After the pid, the process's other fields in document order. */
    static final Comparator<UnregisteredProcess> UNREGISTERED = VerdictOrder::compareUnregistered;

    /**
     * An instance's fields after runtime_id, reached only on a tie of the four keys. Written as a
     * chain, which costs a call per link on every comparison: the keys that decide nearly every
     * comparison are compared flat, in {@link #compareInstances}, before it (sorting 10,000 stale
     * rows is part of the classifier's per-row work a cold assessment interprets; docs/PERFORMANCE.md,
     * "Order" and "The classifier's per-row work").
     */
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

    /** A process's fields after the pid, reached only on a tie of pids. */
    private static final Comparator<UnregisteredProcess> UNREGISTERED_TIES = Comparator
            .comparing(UnregisteredProcess::startedAt, INSTANT)
            .thenComparing(UnregisteredProcess::commandLine, OUTSIDE_TEXT)
            .thenComparing(process -> process.reason().code());

    private static int compareMembers(RosterMember a, RosterMember b) {
        int order = text(a.namespace(), b.namespace());
        if (order == 0) {
            order = text(a.profile(), b.profile());
        }
        return order != 0 ? order : text(a.role(), b.role());
    }

    private static int compareInstances(Instance a, Instance b) {
        int order = text(a.namespace(), b.namespace());
        if (order == 0) {
            order = text(a.profile(), b.profile());
        }
        if (order == 0) {
            order = Long.compare(a.pid(), b.pid());
        }
        if (order == 0) {
            order = text(a.runtimeId(), b.runtimeId());
        }
        return order != 0 ? order : INSTANCE_TIES.compare(a, b);
    }

    private static int compareFlagged(FlaggedRegistration a, FlaggedRegistration b) {
        int order = compareInstances(a.instance(), b.instance());
        return order != 0 ? order : a.reason().code().compareTo(b.reason().code());
    }

    private static int compareMalformed(MalformedRegistration a, MalformedRegistration b) {
        int order = text(a.runtimeId(), b.runtimeId());
        return order != 0 ? order : a.reason().code().compareTo(b.reason().code());
    }

    private static int compareUnregistered(UnregisteredProcess a, UnregisteredProcess b) {
        int order = Long.compare(a.pid(), b.pid());
        return order != 0 ? order : UNREGISTERED_TIES.compare(a, b);
    }

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

    /** Natural order, nulls last. */
    private static int text(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }

    private VerdictOrder() {
    }
}
