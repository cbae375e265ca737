package dev.fleet.domain.verdict;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Code;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.Json;
import dev.fleet.domain.verdict.encoding.Json.Members;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The verdict as a document: one tree, field by field in the contract's order (docs/CONTRACT.md), the
 * one place the document is described. Every rendering starts from it: the plain tree MCP structured
 * content is made of ({@link #toTree}), the JSON, which is the tree's canonical encoding ({@link
 * #canonicalJson}), and the digest, that of the tree without what the contract leaves out ({@link
 * VerdictDigest}). Two other places name the same
 * fields and change with it: {@link Verdict#omittedEntries} names the capped lists, and the MCP
 * adapter's output schema describes every field to clients. Every list is shown capped ({@link
 * VerdictLists}), and every string taken from outside the program capped ({@link OutsideText}), here,
 * so both caps hold for the JSON and the digest alike.
 */
public final class VerdictDocument {

    private VerdictDocument() {
    }

    /** The whole document, as every client is shown it: ordered maps, lists, strings, integers, booleans, nulls. */
    public static Map<String, Object> toTree(Verdict verdict) {
        return tree(verdict).plain();
    }

    /** The whole document's canonical JSON ({@link CanonicalJson}). */
    public static String canonicalJson(Verdict verdict) {
        return CanonicalJson.encode(tree(verdict));
    }

    /**
     * The document both ways an MCP client is shown it, from one tree: the plain tree (structured
     * content) and its canonical JSON (the text), so that a tool call builds the document once.
     */
    public static Rendered rendered(Verdict verdict) {
        Json.Obj document = tree(verdict);
        return new Rendered(document.plain(), CanonicalJson.encode(document));
    }

    /** A verdict's document as a plain tree and as the canonical JSON that tree encodes to. */
    public record Rendered(Map<String, Object> tree, String json) {
    }

    /** The document as one tree. */
    static Json.Obj tree(Verdict verdict) {
        Members document = new Members()
                .put("inventory_complete", verdict.inventoryComplete())
                .put("mutation_gate_satisfied", verdict.mutationGateSatisfied())
                .put("blocked_reason", code(verdict.blockedReason()))
                .put("blocked_reasons", list(verdict.blockedReasons(), VerdictDocument::blockedReason))
                .put("expected_member_count", verdict.expectedMemberCount())
                .put("running_member_count", verdict.runningMemberCount());
        members(verdict, document);
        document.put("unexpected_members", list(verdict.unexpectedMembers(), VerdictDocument::flagged))
                .put("stale_registrations", list(verdict.staleRegistrations(), VerdictDocument::flagged))
                .put("unverified_registrations", list(verdict.unverifiedRegistrations(), VerdictDocument::flagged))
                .put("malformed_registrations", list(verdict.malformedRegistrations(), VerdictDocument::malformed))
                .put("orphaned_instances", list(verdict.orphanedInstances(), VerdictDocument::orphaned))
                .put("remote_instances", list(verdict.remoteInstances(), VerdictDocument::remote))
                .put("unregistered_processes", list(verdict.unregisteredProcesses(), VerdictDocument::unregistered))
                .put("single_cohort", verdict.singleCohort())
                .put("cohort_ids", list(verdict.cohortIds(), VerdictDocument::outside))
                .put("single_revision", verdict.singleRevision())
                .put("startup_heads", list(verdict.startupHeads(), VerdictDocument::outside))
                .put("registry", summary("readable", verdict.registry().readable(), verdict.registry().reason(),
                        "registration_count", verdict.registry().registrationCount()))
                .put("process_listing", summary("available", verdict.processListing().available(),
                        verdict.processListing().reason(), "server_process_count",
                        verdict.processListing().serverProcessCount()));
        Members omitted = new Members();
        verdict.omittedEntries().forEach((name, count) -> omitted.put(name, count.intValue()));
        return document.put("omitted_entries", omitted.build())
                .put("verdict_digest", verdict.verdictDigest())
                .put("observation", observation(verdict.observation()))
                .build();
    }

    /** members, missing_members and duplicate_members, which shows the instances of those members again. */
    private static void members(Verdict verdict, Members document) {
        document.put("members", list(verdict.members(), report -> member(report.member())
                .put("state", report.state().code())
                .put("instances", instances(report))
                .build()));
        document.put("missing_members", list(verdict.missingMembers(), member -> member(member).build()));
        document.put("duplicate_members", list(verdict.duplicateMembers(), report -> member(report.member())
                .put("instances", instances(report))
                .build()));
    }

    private static Members member(RosterMember member) {
        return new Members()
                .put("namespace", outside(member.namespace()))
                .put("profile", outside(member.profile()))
                .put("role", outside(member.role()));
    }

    private static Json instances(MemberReport report) {
        return list(report.instances(), VerdictDocument::instance);
    }

    /** An instance's entry, as its member's {@code instances} list it. */
    static Json.Obj instance(Instance instance) {
        return instanceFields(instance).build();
    }

    private static Members instanceFields(Instance instance) {
        return new Members()
                .put("runtime_id", outside(instance.runtimeId()))
                .put("namespace", outside(instance.namespace()))
                .put("profile", outside(instance.profile()))
                .put("role", outside(instance.role()))
                .put("pid", instance.pid())
                .put("cohort_id", outside(instance.cohortId()))
                .put("cohort_source", outside(instance.cohortSource()))
                .put("startup_head", outside(instance.startupHead()))
                .put("transport", outside(instance.transport()))
                .put("client_provenance", outside(instance.clientProvenance()))
                .put("registered_at", Timestamps.format(instance.registeredAt()))
                .put("last_heartbeat_at", Timestamps.format(instance.lastHeartbeatAt()))
                .put("process_started_at", Timestamps.format(instance.observedProcessStartedAt()))
                .put("recorded_process_started_at", Timestamps.format(instance.recordedProcessStartedAt()))
                .put("server_pid", instance.serverPid() == null ? Json.NULL : Json.of(instance.serverPid().longValue()))
                .put("server_command", outside(instance.serverCommand()))
                // Capped like every list (omitted_entries names it): a member may start any number of processes.
                .put("served_pids", list(instance.servedPids(), pid -> Json.of(pid.longValue())));
    }

    private static Json flagged(FlaggedRegistration flagged) {
        return instanceFields(flagged.instance()).put("reason", flagged.reason().code()).build();
    }

    private static Json orphaned(OrphanedInstance orphaned) {
        return instanceFields(orphaned.instance())
                .put("parent_pid", orphaned.parentPid())
                .put("parent_started_at", Timestamps.format(orphaned.parentStartedAt()))
                .build();
    }

    private static Json remote(RemoteInstance remote) {
        return instanceFields(remote.instance()).put("host_id", outside(remote.hostId())).build();
    }

    private static Json unregistered(UnregisteredProcess process) {
        return new Members()
                .put("pid", process.pid())
                .put("started_at", Timestamps.format(process.startedAt()))
                .put("command_line", outside(process.commandLine()))
                .put("reason", process.reason().code())
                .build();
    }

    private static Json malformed(MalformedRegistration malformed) {
        return new Members()
                .put("runtime_id", outside(malformed.runtimeId()))
                .put("reason", malformed.reason().code())
                .build();
    }

    private static Json blockedReason(BlockedReason reason) {
        return new Members()
                .put("code", reason.code().code())
                .put("detail", reason.detail())
                .put("action", reason.action())
                .build();
    }

    /** A source's summary, the registry's or the process listing's: whether it answered, why not, and its count. */
    private static Json summary(String answered, boolean answeredValue, Code reason, String counted, int count) {
        return new Members()
                .put(answered, answeredValue)
                .put("reason", code(reason))
                .put(counted, count)
                .build();
    }

    private static Json observation(ObservationSummary observation) {
        AnsweredBy answeredBy = observation.answeredBy();
        return new Members()
                .put("observed_at", Timestamps.format(observation.observedAt()))
                .put("boot_id", outside(observation.bootId()))
                .put("hostname", outside(observation.hostname()))
                .put("host_id", outside(observation.hostId()))
                .put("pid_namespace", outside(observation.pidNamespace()))
                .put("registry_path", outside(observation.registryPath()))
                .put("answered_by", answeredBy == null ? Json.NULL : new Members()
                        .put("pid", answeredBy.pid())
                        .put("namespace", answeredBy.namespace())
                        .put("profile", answeredBy.profile())
                        .build())
                .build();
    }

    /** A list as shown: its first {@value VerdictLists#MAX_ENTRIES} entries ({@code omitted_entries} counts the rest). */
    private static <T> Json list(List<T> items, Function<? super T, ? extends Json> each) {
        return Json.array(VerdictLists.shown(items), each);
    }

    /** Text from outside the program (a registry row, a command line, the host), capped. */
    private static Json outside(String text) {
        return Json.of(OutsideText.cap(text));
    }

    private static Json code(Code code) {
        return Json.of(code == null ? null : code.code());
    }
}
