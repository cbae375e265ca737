package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.VerdictFields.*;

import dev.fleet.domain.verdict.encoding.CanonicalWriter;
import dev.fleet.domain.verdict.encoding.DocumentSink;
import dev.fleet.domain.verdict.encoding.FieldName;
import dev.fleet.domain.verdict.encoding.TreeSink;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The verdict as a document: the one place it is written, field by field in the contract's order
 * (the names are {@link VerdictFields}). Two other places name the same fields and change with it:
 * {@link Verdict#omittedEntries} names the capped lists, and the MCP adapter's output schema
 * describes every field to clients. The document is described once, value by value, to a {@link
 * DocumentSink}, and every renderer starts from this description: the tree of ordered maps, lists,
 * strings, integers, booleans and nulls that MCP structured content is made of ({@link #toTree}),
 * and the canonical JSON written directly, as text ({@link #canonicalJson}) or as {@code
 * verdict_digest} alone ({@link #digestOf}). The sink is told
 * what the digest leaves out (every {@code last_heartbeat_at}, and all that follows the digest's own
 * field) and where the digest goes, never which kind of sink it is. Every string taken from outside
 * the program is capped here ({@link OutsideText}), so the cap holds for every renderer and for the
 * digest.
 */
public final class VerdictDocument {

    /** Bytes per listed entry (an instance, a flagged or malformed row, a process) that most entries stay within. */
    private static final int BYTES_PER_ENTRY = 512;
    /** The largest array a JVM allocates, with room for its header. */
    private static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;

    private VerdictDocument() {
    }

    /** The whole document, as every client is shown it. */
    public static Map<String, Object> toTree(Verdict verdict) {
        TreeSink tree = new TreeSink();
        write(verdict, tree);
        return tree.root();
    }

    /**
     * The whole document's canonical JSON: exactly {@code CanonicalJson.encode(toTree(verdict))},
     * written without building the tree.
     */
    public static String canonicalJson(Verdict verdict) {
        CanonicalWriter writer = CanonicalWriter.forText(expectedBytes(verdict));
        write(verdict, writer);
        return writer.text();
    }

    /** {@code verdict_digest} of {@code verdict} (its own {@code verdictDigest} is not read): see {@link VerdictDigest}. */
    static String digestOf(Verdict verdict) {
        CanonicalWriter writer = CanonicalWriter.forDigest();
        write(verdict, writer);
        return writer.digest();
    }

    /**
     * About how long {@code verdict}'s JSON will be: a guess from how many entries it lists (an
     * instance counts twice, as a duplicate's instances are listed again under duplicate_members).
     */
    private static int expectedBytes(Verdict verdict) {
        long entries = (long) shownSize(verdict.unexpectedMembers()) + shownSize(verdict.staleRegistrations())
                + shownSize(verdict.unverifiedRegistrations()) + shownSize(verdict.malformedRegistrations())
                + shownSize(verdict.orphanedInstances())
                + shownSize(verdict.unregisteredProcesses()) + shownSize(verdict.remoteInstances());
        for (MemberReport member : VerdictLists.shown(verdict.members())) {
            entries += 2L * shownSize(member.instances());
        }
        return (int) Math.min(LARGEST_ARRAY, entries * BYTES_PER_ENTRY);
    }

    private static int shownSize(List<?> list) {
        return VerdictLists.shown(list).size();
    }

    private static void write(Verdict verdict, DocumentSink out) {
        out.beginObject();
        writeGate(verdict, out);
        writeMembers(verdict, out);
        writeFlaggedLists(verdict, out);
        writeAgreements(verdict, out);
        out.name(REGISTRY);
        VerdictEntries.writeRegistry(verdict.registry(), out);
        out.name(PROCESS_LISTING);
        VerdictEntries.writeListing(verdict.processListing(), out);
        out.name(OMITTED_ENTRIES);
        out.beginObject();
        verdict.omittedEntries().forEach((list, count) -> {
            out.name(FieldName.of(list));
            out.number(count);
        });
        out.endObject();
        out.digest(VERDICT_DIGEST, verdict.verdictDigest());
        out.name(OBSERVATION);
        VerdictEntries.writeObservation(verdict.observation(), out);
        out.endObject();
    }

    private static void writeGate(Verdict verdict, DocumentSink out) {
        out.name(INVENTORY_COMPLETE);
        out.bool(verdict.inventoryComplete());
        out.name(MUTATION_GATE_SATISFIED);
        out.bool(verdict.mutationGateSatisfied());
        out.name(BLOCKED_REASON);
        out.string(verdict.blockedReason() == null ? null : verdict.blockedReason().code());
        list(out, BLOCKED_REASONS, verdict.blockedReasons(), VerdictEntries::writeBlockedReason);
        out.name(EXPECTED_MEMBER_COUNT);
        out.number(verdict.expectedMemberCount());
        out.name(RUNNING_MEMBER_COUNT);
        out.number(verdict.runningMemberCount());
    }

    /** members, missing_members and duplicate_members, which repeats the instances of those members. */
    private static void writeMembers(Verdict verdict, DocumentSink out) {
        list(out, MEMBERS, verdict.members(), (report, sink) -> {
            sink.beginObject();
            VerdictEntries.writeMemberFields(report.member(), sink);
            sink.name(STATE);
            sink.string(report.state().code());
            sink.name(INSTANCES);
            writeInstances(report, sink);
            sink.endObject();
        });
        list(out, MISSING_MEMBERS, verdict.missingMembers(), (member, sink) -> {
            sink.beginObject();
            VerdictEntries.writeMemberFields(member, sink);
            sink.endObject();
        });
        list(out, DUPLICATE_MEMBERS, verdict.duplicateMembers(), (report, sink) -> {
            sink.beginObject();
            VerdictEntries.writeMemberFields(report.member(), sink);
            sink.name(INSTANCES);
            writeInstances(report, sink);
            sink.endObject();
        });
    }

    /** A member's instances: written again for duplicate_members, which a sink may copy (see {@link DocumentSink#repeatable}). */
    private static void writeInstances(MemberReport report, DocumentSink out) {
        out.repeatable(report, sink -> list(sink, report.instances(), VerdictEntries::writeInstance));
    }

    private static void writeFlaggedLists(Verdict verdict, DocumentSink out) {
        list(out, UNEXPECTED_MEMBERS, verdict.unexpectedMembers(), VerdictEntries::writeFlagged);
        list(out, STALE_REGISTRATIONS, verdict.staleRegistrations(), VerdictEntries::writeFlagged);
        list(out, UNVERIFIED_REGISTRATIONS, verdict.unverifiedRegistrations(), VerdictEntries::writeFlagged);
        list(out, MALFORMED_REGISTRATIONS, verdict.malformedRegistrations(), VerdictEntries::writeMalformed);
        list(out, ORPHANED_INSTANCES, verdict.orphanedInstances(), VerdictEntries::writeOrphaned);
        list(out, REMOTE_INSTANCES, verdict.remoteInstances(), VerdictEntries::writeRemote);
        list(out, UNREGISTERED_PROCESSES, verdict.unregisteredProcesses(), VerdictEntries::writeUnregistered);
    }

    private static void writeAgreements(Verdict verdict, DocumentSink out) {
        out.name(SINGLE_COHORT);
        out.bool(verdict.singleCohort());
        list(out, COHORT_IDS, verdict.cohortIds(), (id, sink) -> sink.string(OutsideText.cap(id)));
        out.name(SINGLE_REVISION);
        out.bool(verdict.singleRevision());
        list(out, STARTUP_HEADS, verdict.startupHeads(), (head, sink) -> sink.string(OutsideText.cap(head)));
    }

    /** The field {@code name}, a list: every list of the document but a member's instances is one. */
    private static <T> void list(DocumentSink out, FieldName name, List<T> items, BiConsumer<T, DocumentSink> write) {
        out.name(name);
        list(out, items, write);
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
