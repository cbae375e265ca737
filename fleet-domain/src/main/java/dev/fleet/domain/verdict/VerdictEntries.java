package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.VerdictFields.*;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Code;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.verdict.encoding.DocumentSink;
import dev.fleet.domain.verdict.encoding.FieldName;

/** How {@link VerdictDocument} writes each entry of its lists, and its registry, listing and observation. */
final class VerdictEntries {

    private VerdictEntries() {
    }

    static void writeInstance(Instance instance, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(instance, out);
        out.endObject();
    }

    private static void writeInstanceFields(Instance instance, DocumentSink out) {
        out.name(RUNTIME_ID);
        out.string(OutsideText.cap(instance.runtimeId()));
        out.name(NAMESPACE);
        out.string(OutsideText.cap(instance.namespace()));
        out.name(PROFILE);
        out.string(OutsideText.cap(instance.profile()));
        out.name(ROLE);
        out.string(OutsideText.cap(instance.role()));
        out.name(PID);
        out.number(instance.pid());
        out.name(COHORT_ID);
        out.string(OutsideText.cap(instance.cohortId()));
        out.name(COHORT_SOURCE);
        out.string(OutsideText.cap(instance.cohortSource()));
        out.name(STARTUP_HEAD);
        out.string(OutsideText.cap(instance.startupHead()));
        out.name(TRANSPORT);
        out.string(OutsideText.cap(instance.transport()));
        out.name(CLIENT_PROVENANCE);
        out.string(OutsideText.cap(instance.clientProvenance()));
        out.name(REGISTERED_AT);
        out.instant(instance.registeredAt());
        out.beginUndigested();
        out.name(LAST_HEARTBEAT_AT);
        out.instant(instance.lastHeartbeatAt());
        out.endUndigested();
        out.name(PROCESS_STARTED_AT);
        out.instant(instance.observedProcessStartedAt());
        out.name(RECORDED_PROCESS_STARTED_AT);
        out.instant(instance.recordedProcessStartedAt());
    }

    static void writeFlagged(FlaggedRegistration flagged, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(flagged.instance(), out);
        out.name(REASON);
        out.string(flagged.reason().code());
        out.endObject();
    }

    static void writeOrphaned(OrphanedInstance orphaned, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(orphaned.instance(), out);
        out.name(PARENT_PID);
        out.number(orphaned.parentPid());
        out.name(PARENT_STARTED_AT);
        out.instant(orphaned.parentStartedAt());
        out.endObject();
    }

    static void writeRemote(RemoteInstance remote, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(remote.instance(), out);
        out.name(HOST_ID);
        out.string(OutsideText.cap(remote.hostId()));
        out.endObject();
    }

    static void writeMemberFields(RosterMember member, DocumentSink out) {
        out.name(NAMESPACE);
        out.string(OutsideText.cap(member.namespace()));
        out.name(PROFILE);
        out.string(OutsideText.cap(member.profile()));
        out.name(ROLE);
        out.string(OutsideText.cap(member.role()));
    }

    static void writeUnregistered(UnregisteredProcess process, DocumentSink out) {
        out.beginObject();
        out.name(PID);
        out.number(process.pid());
        out.name(STARTED_AT);
        out.instant(process.startedAt());
        out.name(COMMAND_LINE);
        out.string(OutsideText.cap(process.commandLine()));
        out.name(REASON);
        out.string(process.reason().code());
        out.endObject();
    }

    static void writeMalformed(MalformedRegistration malformed, DocumentSink out) {
        out.beginObject();
        out.name(RUNTIME_ID);
        out.string(OutsideText.cap(malformed.runtimeId()));
        out.name(REASON);
        out.string(malformed.reason().code());
        out.endObject();
    }

    static void writeBlockedReason(BlockedReason reason, DocumentSink out) {
        out.beginObject();
        out.name(CODE);
        out.string(reason.code().code());
        out.name(DETAIL);
        out.string(reason.detail());
        out.name(ACTION);
        out.string(reason.action());
        out.endObject();
    }

    static void writeRegistry(RegistrySummary registry, DocumentSink out) {
        writeSummary(READABLE, registry.readable(), registry.reason(), REGISTRATION_COUNT,
                registry.registrationCount(), out);
    }

    static void writeListing(ListingSummary listing, DocumentSink out) {
        writeSummary(AVAILABLE, listing.available(), listing.reason(), SERVER_PROCESS_COUNT,
                listing.serverProcessCount(), out);
    }

    /** A source's summary, the registry's or the process listing's: whether it answered, why not, and its count. */
    private static void writeSummary(FieldName answered, boolean answeredValue, Code reason, FieldName counted,
            int count, DocumentSink out) {
        out.beginObject();
        out.name(answered);
        out.bool(answeredValue);
        out.name(REASON);
        out.string(reason == null ? null : reason.code());
        out.name(counted);
        out.number(count);
        out.endObject();
    }

    static void writeObservation(ObservationSummary observation, DocumentSink out) {
        out.beginObject();
        out.name(OBSERVED_AT);
        out.instant(observation.observedAt());
        out.name(BOOT_ID);
        out.string(OutsideText.cap(observation.bootId()));
        out.name(HOSTNAME);
        out.string(OutsideText.cap(observation.hostname()));
        out.name(HOST_ID);
        out.string(OutsideText.cap(observation.hostId()));
        out.name(PID_NAMESPACE);
        out.string(OutsideText.cap(observation.pidNamespace()));
        out.name(REGISTRY_PATH);
        out.string(OutsideText.cap(observation.registryPath()));
        out.name(ANSWERED_BY);
        AnsweredBy answeredBy = observation.answeredBy();
        if (answeredBy == null) {
            out.nullValue();
        } else {
            out.beginObject();
            out.name(PID);
            out.number(answeredBy.pid());
            out.name(NAMESPACE);
            out.string(answeredBy.namespace());
            out.name(PROFILE);
            out.string(answeredBy.profile());
            out.endObject();
        }
        out.endObject();
    }
}
