package dev.fleet.domain.verdict;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The verdict as a document: the one place the contract's field names and order are written. The
 * document is described once, value by value, to a {@link DocumentSink}: every renderer (MCP
 * structured content, the CLI's JSON, the digest) starts from this description, either as the tree
 * of ordered maps, lists, strings, integers, booleans and nulls ({@link #toTree}) or as its
 * canonical JSON written directly ({@link #canonicalJson}, and the digest). Every string taken
 * from outside the program is capped here ({@link OutsideText}), so the cap holds for every
 * renderer and for the digest.
 */
public final class VerdictDocument {

    // Every field name, encoded once (see FieldName).
    private static final FieldName VERDICT_DIGEST_NAME = FieldName.of("verdict_digest");
    private static final FieldName OBSERVATION_NAME = FieldName.of("observation");
    private static final FieldName LAST_HEARTBEAT_AT_NAME = FieldName.of("last_heartbeat_at");
    private static final FieldName ACTION = FieldName.of("action");
    private static final FieldName ANSWERED_BY = FieldName.of("answered_by");
    private static final FieldName AVAILABLE = FieldName.of("available");
    private static final FieldName BLOCKED_REASON = FieldName.of("blocked_reason");
    private static final FieldName BLOCKED_REASONS = FieldName.of("blocked_reasons");
    private static final FieldName BOOT_ID = FieldName.of("boot_id");
    private static final FieldName CLIENT_PROVENANCE = FieldName.of("client_provenance");
    private static final FieldName CODE = FieldName.of("code");
    private static final FieldName COHORT_ID = FieldName.of("cohort_id");
    private static final FieldName COHORT_IDS = FieldName.of("cohort_ids");
    private static final FieldName COHORT_SOURCE = FieldName.of("cohort_source");
    private static final FieldName COMMAND_LINE = FieldName.of("command_line");
    private static final FieldName DETAIL = FieldName.of("detail");
    private static final FieldName DUPLICATE_MEMBERS = FieldName.of("duplicate_members");
    private static final FieldName EXPECTED_MEMBER_COUNT = FieldName.of("expected_member_count");
    private static final FieldName HOSTNAME = FieldName.of("hostname");
    private static final FieldName INSTANCES = FieldName.of("instances");
    private static final FieldName INVENTORY_COMPLETE = FieldName.of("inventory_complete");
    private static final FieldName MALFORMED_REGISTRATIONS = FieldName.of("malformed_registrations");
    private static final FieldName MEMBERS = FieldName.of("members");
    private static final FieldName MISSING_MEMBERS = FieldName.of("missing_members");
    private static final FieldName MUTATION_GATE_SATISFIED = FieldName.of("mutation_gate_satisfied");
    private static final FieldName NAMESPACE = FieldName.of("namespace");
    private static final FieldName OMITTED_ENTRIES = FieldName.of("omitted_entries");
    private static final FieldName OBSERVED_AT = FieldName.of("observed_at");
    private static final FieldName PID = FieldName.of("pid");
    private static final FieldName PID_NAMESPACE = FieldName.of("pid_namespace");
    private static final FieldName PROCESS_LISTING = FieldName.of("process_listing");
    private static final FieldName PROCESS_STARTED_AT = FieldName.of("process_started_at");
    private static final FieldName PROFILE = FieldName.of("profile");
    private static final FieldName READABLE = FieldName.of("readable");
    private static final FieldName REASON = FieldName.of("reason");
    private static final FieldName RECORDED_PROCESS_STARTED_AT = FieldName.of("recorded_process_started_at");
    private static final FieldName REGISTERED_AT = FieldName.of("registered_at");
    private static final FieldName REGISTRATION_COUNT = FieldName.of("registration_count");
    private static final FieldName REGISTRY = FieldName.of("registry");
    private static final FieldName REGISTRY_PATH = FieldName.of("registry_path");
    private static final FieldName ROLE = FieldName.of("role");
    private static final FieldName RUNNING_MEMBER_COUNT = FieldName.of("running_member_count");
    private static final FieldName RUNTIME_ID = FieldName.of("runtime_id");
    private static final FieldName SERVER_PROCESS_COUNT = FieldName.of("server_process_count");
    private static final FieldName SINGLE_COHORT = FieldName.of("single_cohort");
    private static final FieldName SINGLE_REVISION = FieldName.of("single_revision");
    private static final FieldName STALE_REGISTRATIONS = FieldName.of("stale_registrations");
    private static final FieldName STARTED_AT = FieldName.of("started_at");
    private static final FieldName STARTUP_HEAD = FieldName.of("startup_head");
    private static final FieldName STARTUP_HEADS = FieldName.of("startup_heads");
    private static final FieldName STATE = FieldName.of("state");
    private static final FieldName TRANSPORT = FieldName.of("transport");
    private static final FieldName UNEXPECTED_MEMBERS = FieldName.of("unexpected_members");
    private static final FieldName UNREGISTERED_PROCESSES = FieldName.of("unregistered_processes");
    private static final FieldName UNVERIFIED_REGISTRATIONS = FieldName.of("unverified_registrations");

    /** Everything, as clients see it. */
    private static final VerdictDocument SHOWN = new VerdictDocument(false);
    /**
     * What the digest covers: no observation, no digest, and no heartbeat instants. Liveness ticks
     * are not fleet state, so two members answering either side of a heartbeat agree.
     */
    private static final VerdictDocument DIGESTED = new VerdictDocument(true);

    private final boolean forDigest;

    private VerdictDocument(boolean forDigest) {
        this.forDigest = forDigest;
    }

    /** The whole document, as every client is shown it. */
    public static Map<String, Object> toTree(Verdict verdict) {
        TreeSink tree = new TreeSink();
        SHOWN.write(verdict, tree);
        return tree.root();
    }

    /**
     * The whole document's canonical JSON: exactly {@code CanonicalJson.encode(toTree(verdict))},
     * written without building the tree.
     */
    public static String canonicalJson(Verdict verdict) {
        CanonicalWriter writer = CanonicalWriter.forText();
        SHOWN.write(verdict, writer);
        return writer.text();
    }

    /**
     * {@code unsealed} (a verdict without its digest) sealed, with its canonical JSON: the digest is
     * taken from the same bytes as the JSON while they are written, one walk instead of two. The
     * same verdict and JSON as {@link FleetClassifier#classify} then {@link #canonicalJson}.
     */
    static JsonVerdict seal(Verdict unsealed) {
        CanonicalWriter writer = CanonicalWriter.teeing(expectedBytes(unsealed));
        SHOWN.write(unsealed, writer);
        return new JsonVerdict(unsealed.withDigest(writer.teedDigest()), writer.text());
    }

    /** Bytes per listed entry (an instance, a flagged or malformed row, a process) that most entries stay within. */
    private static final int BYTES_PER_ENTRY = 512;
    /** The largest array a JVM allocates, with room for its header. */
    private static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * About how long {@code verdict}'s JSON will be: a guess from how many entries it lists (an
     * instance counts twice, as a duplicate's instances are listed again under duplicate_members).
     */
    private static int expectedBytes(Verdict verdict) {
        long entries = (long) shownSize(verdict.unexpectedMembers()) + shownSize(verdict.staleRegistrations())
                + shownSize(verdict.unverifiedRegistrations()) + shownSize(verdict.malformedRegistrations())
                + shownSize(verdict.unregisteredProcesses());
        for (MemberReport member : VerdictLists.shown(verdict.members())) {
            entries += 2L * shownSize(member.instances());
        }
        return (int) Math.min(LARGEST_ARRAY, entries * BYTES_PER_ENTRY);
    }

    private static int shownSize(List<?> list) {
        return VerdictLists.shown(list).size();
    }

    /** Writes the part of the document {@code verdict_digest} is taken over. */
    static void writeDigested(Verdict verdict, DocumentSink out) {
        DIGESTED.write(verdict, out);
    }

    /** An instance's fields, shared by members, duplicates and flagged registrations. */
    public static Map<String, Object> instance(Instance instance) {
        TreeSink tree = new TreeSink();
        SHOWN.writeInstance(instance, tree);
        return tree.root();
    }

    static Map<String, Object> unregistered(UnregisteredProcess process) {
        TreeSink tree = new TreeSink();
        writeUnregistered(process, tree);
        return tree.root();
    }

    private void write(Verdict verdict, DocumentSink out) {
        out.beginObject();
        out.name(INVENTORY_COMPLETE);
        out.bool(verdict.inventoryComplete());
        out.name(MUTATION_GATE_SATISFIED);
        out.bool(verdict.mutationGateSatisfied());
        out.name(BLOCKED_REASON);
        out.string(verdict.blockedReason() == null ? null : verdict.blockedReason().code());
        out.name(BLOCKED_REASONS);
        list(out, verdict.blockedReasons(), VerdictDocument::writeBlockedReason);
        out.name(EXPECTED_MEMBER_COUNT);
        out.number(verdict.expectedMemberCount());
        out.name(RUNNING_MEMBER_COUNT);
        out.number(verdict.runningMemberCount());
        out.name(MEMBERS);
        // duplicate_members repeats the instances of those members: written as JSON, each duplicate's
        // instances are written once and the text copied (a tree gets its own maps both times).
        Map<MemberReport, CanonicalWriter> writtenOnce =
                out instanceof CanonicalWriter ? new IdentityHashMap<>() : Map.of();
        list(out, verdict.members(), (report, sink) -> {
            sink.beginObject();
            writeMemberFields(report.member(), sink);
            sink.name(STATE);
            sink.string(report.state().code());
            sink.name(INSTANCES);
            if (sink instanceof CanonicalWriter writer && report.state() == MemberState.DUPLICATE) {
                CanonicalWriter instances = instancesJson(writer, report);
                writtenOnce.put(report, instances);
                writer.fragment(instances);
            } else {
                list(sink, report.instances(), this::writeInstance);
            }
            sink.endObject();
        });
        out.name(MISSING_MEMBERS);
        list(out, verdict.missingMembers(), (member, sink) -> {
            sink.beginObject();
            writeMemberFields(member, sink);
            sink.endObject();
        });
        out.name(DUPLICATE_MEMBERS);
        list(out, verdict.duplicateMembers(), (report, sink) -> {
            sink.beginObject();
            writeMemberFields(report.member(), sink);
            sink.name(INSTANCES);
            CanonicalWriter instances = writtenOnce.get(report);
            if (instances != null && sink instanceof CanonicalWriter writer) {
                writer.fragment(instances);
            } else {
                list(sink, report.instances(), this::writeInstance);
            }
            sink.endObject();
        });
        out.name(UNEXPECTED_MEMBERS);
        list(out, verdict.unexpectedMembers(), this::writeFlagged);
        out.name(STALE_REGISTRATIONS);
        list(out, verdict.staleRegistrations(), this::writeFlagged);
        out.name(UNVERIFIED_REGISTRATIONS);
        list(out, verdict.unverifiedRegistrations(), this::writeFlagged);
        out.name(MALFORMED_REGISTRATIONS);
        list(out, verdict.malformedRegistrations(), VerdictDocument::writeMalformed);
        out.name(UNREGISTERED_PROCESSES);
        list(out, verdict.unregisteredProcesses(), VerdictDocument::writeUnregistered);
        out.name(SINGLE_COHORT);
        out.bool(verdict.singleCohort());
        out.name(COHORT_IDS);
        list(out, verdict.cohortIds(), (id, sink) -> sink.string(OutsideText.cap(id)));
        out.name(SINGLE_REVISION);
        out.bool(verdict.singleRevision());
        out.name(STARTUP_HEADS);
        list(out, verdict.startupHeads(), (head, sink) -> sink.string(OutsideText.cap(head)));
        out.name(REGISTRY);
        writeRegistry(verdict.registry(), out);
        out.name(PROCESS_LISTING);
        writeListing(verdict.processListing(), out);
        out.name(OMITTED_ENTRIES);
        out.beginObject();
        verdict.omittedEntries().forEach((list, count) -> {
            out.name(FieldName.of(list));
            out.number(count);
        });
        out.endObject();
        if (!forDigest) {
            String digest = out instanceof CanonicalWriter writer && writer.tees()
                    ? writer.digestOfWhatPrecedes(verdict) : verdict.verdictDigest();
            out.name(VERDICT_DIGEST_NAME);
            out.string(digest);
            out.name(OBSERVATION_NAME);
            writeObservation(verdict.observation(), out);
        }
        out.endObject();
    }

    /** A member's instances as one canonical JSON array, encoded as {@code writer} encodes. */
    private CanonicalWriter instancesJson(CanonicalWriter writer, MemberReport report) {
        CanonicalWriter part = writer.part();
        list(part, report.instances(), this::writeInstance);
        return part;
    }

    private void writeInstance(Instance instance, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(instance, out);
        out.endObject();
    }

    private void writeInstanceFields(Instance instance, DocumentSink out) {
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
        if (!forDigest) {
            out.beginUndigested();
            out.name(LAST_HEARTBEAT_AT_NAME);
            out.instant(instance.lastHeartbeatAt());
            out.endUndigested();
        }
        out.name(PROCESS_STARTED_AT);
        out.instant(instance.observedProcessStartedAt());
        out.name(RECORDED_PROCESS_STARTED_AT);
        out.instant(instance.recordedProcessStartedAt());
    }

    private void writeFlagged(FlaggedRegistration flagged, DocumentSink out) {
        out.beginObject();
        writeInstanceFields(flagged.instance(), out);
        out.name(REASON);
        out.string(flagged.reason().code());
        out.endObject();
    }

    private static void writeMemberFields(RosterMember member, DocumentSink out) {
        out.name(NAMESPACE);
        out.string(OutsideText.cap(member.namespace()));
        out.name(PROFILE);
        out.string(OutsideText.cap(member.profile()));
        out.name(ROLE);
        out.string(OutsideText.cap(member.role()));
    }

    private static void writeUnregistered(UnregisteredProcess process, DocumentSink out) {
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

    private static void writeMalformed(MalformedRegistration malformed, DocumentSink out) {
        out.beginObject();
        out.name(RUNTIME_ID);
        out.string(OutsideText.cap(malformed.runtimeId()));
        out.name(REASON);
        out.string(malformed.reason().code());
        out.endObject();
    }

    private static void writeBlockedReason(BlockedReason reason, DocumentSink out) {
        out.beginObject();
        out.name(CODE);
        out.string(reason.code().code());
        out.name(DETAIL);
        out.string(reason.detail());
        out.name(ACTION);
        out.string(reason.action());
        out.endObject();
    }

    private static void writeRegistry(RegistrySummary registry, DocumentSink out) {
        out.beginObject();
        out.name(READABLE);
        out.bool(registry.readable());
        out.name(REASON);
        out.string(registry.reason() == null ? null : registry.reason().code());
        out.name(REGISTRATION_COUNT);
        out.number(registry.registrationCount());
        out.endObject();
    }

    private static void writeListing(ListingSummary listing, DocumentSink out) {
        out.beginObject();
        out.name(AVAILABLE);
        out.bool(listing.available());
        out.name(REASON);
        out.string(listing.reason() == null ? null : listing.reason().code());
        out.name(SERVER_PROCESS_COUNT);
        out.number(listing.serverProcessCount());
        out.endObject();
    }

    private static void writeObservation(ObservationSummary observation, DocumentSink out) {
        out.beginObject();
        out.name(OBSERVED_AT);
        out.instant(observation.observedAt());
        out.name(BOOT_ID);
        out.string(OutsideText.cap(observation.bootId()));
        out.name(HOSTNAME);
        out.string(OutsideText.cap(observation.hostname()));
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

    /** A list as shown: its first {@value VerdictLists#MAX_ENTRIES} entries ({@code omitted_entries} counts the rest). */
    private static <T> void list(DocumentSink out, List<T> items, BiConsumer<T, DocumentSink> write) {
        out.beginArray();
        for (T item : VerdictLists.shown(items)) {
            write.accept(item, out);
        }
        out.endArray();
    }
}
