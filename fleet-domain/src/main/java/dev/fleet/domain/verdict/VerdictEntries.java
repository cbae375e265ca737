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
        writeOutsideText(RUNTIME_ID, instance.runtimeId(), out);
        writeOutsideText(NAMESPACE, instance.namespace(), out);
        writeOutsideText(PROFILE, instance.profile(), out);
        writeOutsideText(ROLE, instance.role(), out);
        out.name(PID);
        out.number(instance.pid());
        writeOutsideText(COHORT_ID, instance.cohortId(), out);
        writeOutsideText(COHORT_SOURCE, instance.cohortSource(), out);
        writeOutsideText(STARTUP_HEAD, instance.startupHead(), out);
        writeOutsideText(TRANSPORT, instance.transport(), out);
        writeOutsideText(CLIENT_PROVENANCE, instance.clientProvenance(), out);
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
        out.name(SERVER_PID);
        if (instance.serverPid() == null) {
            out.nullValue();
        } else {
            out.number(instance.serverPid());
        }
        writeOutsideText(SERVER_COMMAND, instance.serverCommand(), out);
        // Capped like every list (omitted_entries names it): a member may start any number of processes.
        out.name(SERVED_PIDS);
        out.beginArray();
        for (long pid : VerdictLists.shown(instance.servedPids())) {
            out.number(pid);
        }
        out.endArray();
    }

    /**
     * A field whose text comes from outside the program (a registry row, a command line, the host):
     * capped here ({@link OutsideText}), so the cap holds for every renderer and for the digest.
     */
    private static void writeOutsideText(FieldName name, String text, DocumentSink out) {
        out.name(name);
        out.string(OutsideText.cap(text));
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
        writeOutsideText(HOST_ID, remote.hostId(), out);
        out.endObject();
    }

    static void writeMemberFields(RosterMember member, DocumentSink out) {
        writeOutsideText(NAMESPACE, member.namespace(), out);
        writeOutsideText(PROFILE, member.profile(), out);
        writeOutsideText(ROLE, member.role(), out);
    }

    static void writeUnregistered(UnregisteredProcess process, DocumentSink out) {
        out.beginObject();
        out.name(PID);
        out.number(process.pid());
        out.name(STARTED_AT);
        out.instant(process.startedAt());
        writeOutsideText(COMMAND_LINE, process.commandLine(), out);
        out.name(REASON);
        out.string(process.reason().code());
        out.endObject();
    }

    static void writeMalformed(MalformedRegistration malformed, DocumentSink out) {
        out.beginObject();
        writeOutsideText(RUNTIME_ID, malformed.runtimeId(), out);
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
        writeOutsideText(BOOT_ID, observation.bootId(), out);
        writeOutsideText(HOSTNAME, observation.hostname(), out);
        writeOutsideText(HOST_ID, observation.hostId(), out);
        writeOutsideText(PID_NAMESPACE, observation.pidNamespace(), out);
        writeOutsideText(REGISTRY_PATH, observation.registryPath(), out);
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
