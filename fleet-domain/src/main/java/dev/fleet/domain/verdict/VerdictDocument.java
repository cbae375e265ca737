package dev.fleet.domain.verdict;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The verdict as a document: the one place the contract's field names and order are written. Every
 * renderer (MCP structured content, the CLI's JSON, the digest) starts from this tree of ordered
 * maps, lists, strings, integers, booleans and nulls. Every string taken from outside the program
 * is capped here ({@link OutsideText}), so the cap holds for every renderer and for the digest.
 */
public final class VerdictDocument {

    public static final String OBSERVATION = "observation";
    public static final String VERDICT_DIGEST = "verdict_digest";
    static final String LAST_HEARTBEAT_AT = "last_heartbeat_at";

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
        return SHOWN.render(verdict);
    }

    /** The part of the document {@code verdict_digest} is taken over (see {@link VerdictDigest}). */
    static Map<String, Object> digestedTree(Verdict verdict) {
        return DIGESTED.render(verdict);
    }

    /** An instance's fields, shared by members, duplicates and flagged registrations. */
    public static Map<String, Object> instance(Instance instance) {
        return SHOWN.renderInstance(instance);
    }

    static Map<String, Object> unregistered(UnregisteredProcess process) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("pid", process.pid());
        tree.put("started_at", time(process.startedAt()));
        tree.put("command_line", OutsideText.cap(process.commandLine()));
        tree.put("reason", process.reason().code());
        return tree;
    }

    private Map<String, Object> render(Verdict verdict) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("inventory_complete", verdict.inventoryComplete());
        tree.put("mutation_gate_satisfied", verdict.mutationGateSatisfied());
        tree.put("blocked_reason", verdict.blockedReason() == null ? null : verdict.blockedReason().code());
        tree.put("blocked_reasons", list(verdict.blockedReasons(), VerdictDocument::blockedReason));
        tree.put("expected_member_count", verdict.expectedMemberCount());
        tree.put("running_member_count", verdict.runningMemberCount());
        tree.put("members", list(verdict.members(), report -> {
            Map<String, Object> member = member(report.member());
            member.put("state", report.state().code());
            member.put("instances", list(report.instances(), this::renderInstance));
            return member;
        }));
        tree.put("missing_members", list(verdict.missingMembers(), VerdictDocument::member));
        tree.put("duplicate_members", list(verdict.duplicateMembers(), report -> {
            Map<String, Object> member = member(report.member());
            member.put("instances", list(report.instances(), this::renderInstance));
            return member;
        }));
        tree.put("unexpected_members", list(verdict.unexpectedMembers(), this::flagged));
        tree.put("stale_registrations", list(verdict.staleRegistrations(), this::flagged));
        tree.put("unverified_registrations", list(verdict.unverifiedRegistrations(), this::flagged));
        tree.put("malformed_registrations", list(verdict.malformedRegistrations(), VerdictDocument::malformed));
        tree.put("unregistered_processes", list(verdict.unregisteredProcesses(), VerdictDocument::unregistered));
        tree.put("single_cohort", verdict.singleCohort());
        tree.put("cohort_ids", list(verdict.cohortIds(), OutsideText::cap));
        tree.put("single_revision", verdict.singleRevision());
        tree.put("startup_heads", list(verdict.startupHeads(), OutsideText::cap));
        tree.put("registry", registry(verdict.registry()));
        tree.put("process_listing", listing(verdict.processListing()));
        if (!forDigest) {
            tree.put(VERDICT_DIGEST, verdict.verdictDigest());
            tree.put(OBSERVATION, observation(verdict.observation()));
        }
        return tree;
    }

    private Map<String, Object> renderInstance(Instance instance) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("runtime_id", OutsideText.cap(instance.runtimeId()));
        tree.put("namespace", OutsideText.cap(instance.namespace()));
        tree.put("profile", OutsideText.cap(instance.profile()));
        tree.put("role", OutsideText.cap(instance.role()));
        tree.put("pid", instance.pid());
        tree.put("cohort_id", OutsideText.cap(instance.cohortId()));
        tree.put("cohort_source", OutsideText.cap(instance.cohortSource()));
        tree.put("startup_head", OutsideText.cap(instance.startupHead()));
        tree.put("transport", OutsideText.cap(instance.transport()));
        tree.put("client_provenance", OutsideText.cap(instance.clientProvenance()));
        tree.put("registered_at", time(instance.registeredAt()));
        if (!forDigest) {
            tree.put(LAST_HEARTBEAT_AT, time(instance.lastHeartbeatAt()));
        }
        tree.put("process_started_at", time(instance.observedProcessStartedAt()));
        tree.put("recorded_process_started_at", time(instance.recordedProcessStartedAt()));
        return tree;
    }

    private Map<String, Object> flagged(FlaggedRegistration flagged) {
        Map<String, Object> tree = renderInstance(flagged.instance());
        tree.put("reason", flagged.reason().code());
        return tree;
    }

    private static Map<String, Object> member(RosterMember member) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("namespace", OutsideText.cap(member.namespace()));
        tree.put("profile", OutsideText.cap(member.profile()));
        tree.put("role", OutsideText.cap(member.role()));
        return tree;
    }

    private static Map<String, Object> malformed(MalformedRegistration malformed) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("runtime_id", OutsideText.cap(malformed.runtimeId()));
        tree.put("reason", malformed.reason().code());
        return tree;
    }

    private static Map<String, Object> blockedReason(BlockedReason reason) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("code", reason.code().code());
        tree.put("detail", reason.detail());
        tree.put("action", reason.action());
        return tree;
    }

    private static Map<String, Object> registry(RegistrySummary registry) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("readable", registry.readable());
        tree.put("reason", registry.reason() == null ? null : registry.reason().code());
        tree.put("registration_count", registry.registrationCount());
        return tree;
    }

    private static Map<String, Object> listing(ListingSummary listing) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("available", listing.available());
        tree.put("reason", listing.reason() == null ? null : listing.reason().code());
        tree.put("server_process_count", listing.serverProcessCount());
        return tree;
    }

    private static Map<String, Object> observation(ObservationSummary observation) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("observed_at", time(observation.observedAt()));
        tree.put("boot_id", OutsideText.cap(observation.bootId()));
        tree.put("hostname", OutsideText.cap(observation.hostname()));
        tree.put("pid_namespace", OutsideText.cap(observation.pidNamespace()));
        tree.put("registry_path", OutsideText.cap(observation.registryPath()));
        AnsweredBy answeredBy = observation.answeredBy();
        if (answeredBy == null) {
            tree.put("answered_by", null);
        } else {
            Map<String, Object> by = new LinkedHashMap<>();
            by.put("pid", answeredBy.pid());
            by.put("namespace", answeredBy.namespace());
            by.put("profile", answeredBy.profile());
            tree.put("answered_by", by);
        }
        return tree;
    }

    private static String time(Instant instant) {
        return Timestamps.format(instant);
    }

    private static <T> List<Object> list(List<T> items, Function<T, ? extends Object> render) {
        return items.stream().<Object>map(render).toList();
    }
}
