package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.Comparator;

/**
 * The deterministic order of every verdict list: namespace, profile, pid, runtime_id, nulls last.
 * Ties (only possible between rows no real registry could hold) are broken by the remaining fields
 * in document order, each compared as the canonical JSON shows it ({@link WrittenOrder}: capped,
 * and in the order of its JSON token), so the order never depends on the order the evidence
 * arrived in and is the order of the entries' canonical encodings.
 */
final class VerdictOrder {

    private static final Comparator<String> TEXT = Comparator.nullsLast(Comparator.naturalOrder());
    /** Text from outside the program, as shown: capped ({@link OutsideText}). */
    private static final Comparator<String> OUTSIDE_TEXT = Comparator.comparing(OutsideText::cap, WrittenOrder.TEXT);
    private static final Comparator<Instant> INSTANT = Comparator.comparing(Timestamps::format, WrittenOrder.TEXT);

    static final Comparator<RosterMember> MEMBERS = Comparator
            .comparing(RosterMember::namespace, TEXT)
            .thenComparing(RosterMember::profile, TEXT)
            .thenComparing(RosterMember::role, TEXT);

    static final Comparator<MemberReport> MEMBER_REPORTS = Comparator.comparing(MemberReport::member, MEMBERS);

    /** After namespace, profile, pid and runtime_id (then equal), the instance's other fields in document order. */
    static final Comparator<Instance> INSTANCES = Comparator
            .comparing(Instance::namespace, TEXT)
            .thenComparing(Instance::profile, TEXT)
            .thenComparingLong(Instance::pid)
            .thenComparing(Instance::runtimeId, TEXT)
            .thenComparing(Instance::role, OUTSIDE_TEXT)
            .thenComparing(Instance::cohortId, OUTSIDE_TEXT)
            .thenComparing(Instance::cohortSource, OUTSIDE_TEXT)
            .thenComparing(Instance::startupHead, OUTSIDE_TEXT)
            .thenComparing(Instance::transport, OUTSIDE_TEXT)
            .thenComparing(Instance::clientProvenance, OUTSIDE_TEXT)
            .thenComparing(Instance::registeredAt, INSTANT)
            .thenComparing(Instance::lastHeartbeatAt, INSTANT)
            .thenComparing(Instance::observedProcessStartedAt, INSTANT)
            .thenComparing(Instance::recordedProcessStartedAt, INSTANT);

    static final Comparator<FlaggedRegistration> FLAGGED = Comparator
            .comparing(FlaggedRegistration::instance, INSTANCES)
            .thenComparing(flagged -> flagged.reason().code());

    static final Comparator<MalformedRegistration> MALFORMED = Comparator
            .comparing(MalformedRegistration::runtimeId, TEXT)
            .thenComparing(malformed -> malformed.reason().code());

    /** After the pid, the process's other fields in document order. */
    static final Comparator<UnregisteredProcess> UNREGISTERED = Comparator
            .comparingLong(UnregisteredProcess::pid)
            .thenComparing(UnregisteredProcess::startedAt, INSTANT)
            .thenComparing(UnregisteredProcess::commandLine, OUTSIDE_TEXT)
            .thenComparing(process -> process.reason().code(), WrittenOrder.TEXT);

    private VerdictOrder() {
    }
}
