package dev.fleet.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a verdict is well formed, written from docs/CONTRACT.md alone (not from the product's own
 * output schema): every field present with its type and no other, every code one of the contract's,
 * the digest's pattern, and the rules that tie fields together (the gate implies a complete
 * inventory, {@code blocked_reason} is the first of {@code blocked_reasons}, a member's state matches
 * its instances, an unreadable registry lists nothing). {@link #problems} lists what is wrong; an
 * empty list is a well-formed verdict. The checks of a single field's shape are {@link JsonShape}'s.
 */
public final class VerdictShape extends JsonShape {

    static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

    private static final List<String> TOP = List.of("inventory_complete", "mutation_gate_satisfied", "blocked_reason",
            "blocked_reasons", "expected_member_count", "running_member_count", "members", "missing_members",
            "duplicate_members", "unexpected_members", "stale_registrations", "unverified_registrations",
            "malformed_registrations", "orphaned_instances", "remote_instances", "unregistered_processes", "single_cohort",
            "cohort_ids", "single_revision", "startup_heads", "registry", "process_listing", "omitted_entries", "verdict_digest",
            "observation");
    /** Entries a verdict list shows at most; omitted_entries counts the rest. */
    static final int MAX_ENTRIES = 100;
    /** The contract's blocked codes, in priority order. */
    static final List<String> CODES = List.of("registry_unreadable", "process_listing_unavailable",
            "malformed_registration", "unregistered_process", "process_start_unknown", "pid_namespace_mismatch",
            "registration_unconfirmed", "cohort_unknown", "revision_unknown", "orphaned_member", "duplicate_member",
            "missing_member", "unexpected_member", "remote_member", "cohort_split", "revision_split");
    private static final Set<String> INVENTORY_CODES = Set.copyOf(CODES.subList(0, 9));
    private static final List<String> INSTANCE = List.of("runtime_id", "namespace", "profile", "role", "pid",
            "cohort_id", "cohort_source", "startup_head", "transport", "client_provenance", "registered_at",
            "last_heartbeat_at", "process_started_at", "recorded_process_started_at", "server_pid", "server_command",
            "served_pids");
    private static final List<String> MEMBER_KEY = List.of("namespace", "profile", "role");
    private static final Set<String> REGISTRY_REASONS = Set.of("missing", "schema_missing", "corrupt", "locked",
            "io_error", "unreachable", "access_denied");
    private static final Set<String> LISTING_REASONS = Set.of("unsupported_platform", "permission_denied", "io_error");

    private VerdictShape() {
    }

    public static List<String> problems(JsonNode verdict) {
        VerdictShape shape = new VerdictShape();
        shape.check(verdict);
        return shape.problems;
    }

    private void check(JsonNode v) {
        if (v == null || !v.isObject()) {
            problems.add("not a JSON object");
            return;
        }
        exactKeys("verdict", v, TOP);
        bool(v, "inventory_complete");
        bool(v, "mutation_gate_satisfied");
        integer(v, "expected_member_count");
        integer(v, "running_member_count");
        nullableBool(v, "single_cohort");
        nullableBool(v, "single_revision");
        strings(v, "cohort_ids");
        strings(v, "startup_heads");
        if (!DIGEST.matcher(v.path("verdict_digest").asText("")).matches()) {
            problems.add("verdict_digest is not sha256:<64 hex>: " + v.get("verdict_digest"));
        }
        List<String> codes = blockedReasons(v);
        JsonNode first = v.get("blocked_reason");
        String expectedFirst = codes.isEmpty() ? null : codes.get(0);
        if (first == null || (expectedFirst == null ? !first.isNull() : !expectedFirst.equals(first.asText(null)))) {
            problems.add("blocked_reason " + first + " is not the first of blocked_reasons " + codes);
        }
        boolean gate = v.path("mutation_gate_satisfied").asBoolean();
        boolean complete = v.path("inventory_complete").asBoolean();
        if (gate != codes.isEmpty()) {
            problems.add("mutation_gate_satisfied " + gate + " with blocked_reasons " + codes);
        }
        if (complete == codes.stream().anyMatch(INVENTORY_CODES::contains)) {
            problems.add("inventory_complete " + complete + " with blocked_reasons " + codes);
        }
        JsonNode omitted = v.get("omitted_entries");
        omittedEntries(v, omitted);
        int instances = members(v, omitted);
        for (JsonNode missing : array(v, "missing_members")) {
            exactKeys("missing_members[]", missing, MEMBER_KEY);
        }
        for (JsonNode duplicate : array(v, "duplicate_members")) {
            exactKeys("duplicate_members[]", duplicate, List.of("namespace", "profile", "role", "instances"));
            array(duplicate, "instances").forEach(instance -> instance("duplicate_members[].instances[]", instance,
                    List.of()));
        }
        array(v, "unexpected_members").forEach(i -> instance("unexpected_members[]", i, List.of("reason")));
        array(v, "stale_registrations").forEach(i -> instance("stale_registrations[]", i, List.of("reason")));
        array(v, "unverified_registrations").forEach(i -> instance("unverified_registrations[]", i,
                List.of("reason")));
        array(v, "malformed_registrations").forEach(m -> exactKeys("malformed_registrations[]", m,
                List.of("runtime_id", "reason")));
        array(v, "orphaned_instances").forEach(i -> instance("orphaned_instances[]", i,
                List.of("parent_pid", "parent_started_at")));
        array(v, "unregistered_processes").forEach(p -> exactKeys("unregistered_processes[]", p,
                List.of("pid", "started_at", "command_line", "reason")));
        if (v.path("running_member_count").asInt(-1) != instances) {
            problems.add("running_member_count " + v.get("running_member_count") + " but members list " + instances
                    + " instances");
        }
        int omittedMembers = omitted == null ? 0 : omitted.path("members").asInt(0);
        if (v.path("members").size() + omittedMembers != v.path("expected_member_count").asInt(-1)
                && v.path("registry").path("readable").asBoolean()
                && v.path("process_listing").path("available").asBoolean()) {
            problems.add("expected_member_count " + v.get("expected_member_count") + " but " + v.path("members").size()
                    + " members");
        }
        registryAndListing(v, codes);
        observation(v.get("observation"));
    }

    private List<String> blockedReasons(JsonNode v) {
        List<String> codes = new ArrayList<>();
        for (JsonNode reason : array(v, "blocked_reasons")) {
            exactKeys("blocked_reasons[]", reason, List.of("code", "detail", "action"));
            String code = reason.path("code").asText("");
            if (!CODES.contains(code)) {
                problems.add("unknown blocked code " + reason.get("code"));
            }
            if (!reason.path("detail").isTextual() || !reason.path("action").isTextual()
                    || reason.path("action").asText().isBlank()) {
                problems.add("blocked reason " + code + " lacks a detail or an action");
            }
            codes.add(code);
        }
        List<String> ordered = new ArrayList<>(codes);
        ordered.sort((a, b) -> Integer.compare(CODES.indexOf(a), CODES.indexOf(b)));
        if (!ordered.equals(codes) || new LinkedHashSet<>(codes).size() != codes.size()) {
            problems.add("blocked_reasons out of the contract's order or repeated: " + codes);
        }
        return codes;
    }

    /** Each named list is full (exactly the cap) and each count positive; every full list is named. */
    private void omittedEntries(JsonNode v, JsonNode omitted) {
        if (omitted == null || !omitted.isObject()) {
            problems.add("omitted_entries is not an object: " + omitted);
            return;
        }
        omitted.fields().forEachRemaining(entry -> {
            if (!entry.getValue().isInt() || entry.getValue().asInt() <= 0) {
                problems.add("omitted_entries." + entry.getKey() + " is not a positive count: " + entry.getValue());
            }
            if (v.at("/" + entry.getKey().replace("[", "/").replace("].", "/").replace('.', '/')).size()
                    != MAX_ENTRIES) {
                problems.add("omitted_entries names " + entry.getKey() + " but that list does not hold "
                        + MAX_ENTRIES + " entries");
            }
        });
        for (String list : List.of("members", "missing_members", "duplicate_members", "unexpected_members",
                "stale_registrations", "unverified_registrations", "malformed_registrations", "remote_instances",
                "unregistered_processes", "cohort_ids", "startup_heads")) {
            if (v.path(list).size() > MAX_ENTRIES) {
                problems.add(list + " holds " + v.path(list).size() + " entries, more than " + MAX_ENTRIES);
            }
        }
    }

    /** Instances the members list holds, counting those omitted_entries says were left out. */
    private int members(JsonNode v, JsonNode omitted) {
        int total = 0;
        List<JsonNode> members = array(v, "members");
        for (int i = 0; i < members.size(); i++) {
            JsonNode member = members.get(i);
            total += omitted == null ? 0 : omitted.path("members[" + i + "].instances").asInt(0);
            exactKeys("members[]", member, List.of("namespace", "profile", "role", "state", "instances"));
            List<JsonNode> instances = array(member, "instances");
            instances.forEach(instance -> instance("members[].instances[]", instance, List.of()));
            String state = member.path("state").asText("");
            String expected = instances.isEmpty() ? "missing" : instances.size() == 1 ? "running" : "duplicate";
            if (!state.equals(expected)) {
                problems.add("member " + member.path("profile").asText() + " is " + state + " with "
                        + instances.size() + " instance(s)");
            }
            total += instances.size();
        }
        return total;
    }

    private void registryAndListing(JsonNode v, List<String> codes) {
        JsonNode registry = v.get("registry");
        exactKeys("registry", registry, List.of("readable", "reason", "registration_count"));
        JsonNode listing = v.get("process_listing");
        exactKeys("process_listing", listing, List.of("available", "reason", "server_process_count"));
        if (registry == null || listing == null) {
            return;
        }
        boolean readable = registry.path("readable").asBoolean();
        boolean available = listing.path("available").asBoolean();
        reason("registry", registry, readable, REGISTRY_REASONS);
        reason("process_listing", listing, available, LISTING_REASONS);
        if (!registry.path("registration_count").canConvertToInt()) {
            problems.add("registry.registration_count is not an integer");
        }
        if (!readable && !codes.contains("registry_unreadable")) {
            problems.add("an unreadable registry without registry_unreadable: " + codes);
        }
        if (!readable || !available) {
            for (String list : List.of("members", "missing_members", "duplicate_members", "unexpected_members",
                    "stale_registrations", "unverified_registrations", "malformed_registrations", "remote_instances",
                    "unregistered_processes")) {
                if (v.path(list).size() != 0) {
                    problems.add(list + " is not empty although nothing could be established");
                }
            }
            if (v.path("running_member_count").asInt(-1) != 0) {
                problems.add("running_member_count is not 0 although nothing could be established");
            }
        }
    }

    private void reason(String name, JsonNode node, boolean ok, Set<String> reasons) {
        JsonNode reason = node.get("reason");
        if (ok ? reason == null || !reason.isNull() : reason == null || !reasons.contains(reason.asText())) {
            problems.add(name + " reason " + reason + " does not fit " + (ok ? "a readable" : "an unreadable") + " "
                    + name);
        }
    }

    private void observation(JsonNode observation) {
        exactKeys("observation", observation, List.of("observed_at", "boot_id", "hostname", "host_id",
                "pid_namespace", "registry_path", "answered_by"));
        if (observation == null) {
            return;
        }
        JsonNode answeredBy = observation.get("answered_by");
        if (answeredBy != null && !answeredBy.isNull()) {
            exactKeys("observation.answered_by", answeredBy, List.of("pid", "namespace", "profile"));
        }
        if (!observation.path("observed_at").isTextual()) {
            problems.add("observation.observed_at is not a string");
        }
    }

    private void instance(String where, JsonNode instance, List<String> extra) {
        List<String> keys = new ArrayList<>(INSTANCE);
        keys.addAll(extra);
        exactKeys(where, instance, keys);
        if (instance != null && (!instance.path("pid").canConvertToLong() || instance.path("pid").asLong() <= 0)) {
            problems.add(where + " has no positive pid: " + instance.get("pid"));
        }
        if (instance == null) {
            return;
        }
        JsonNode serverPid = instance.path("server_pid");
        if (!serverPid.isNull() && !(serverPid.isIntegralNumber() && serverPid.asLong() > 0)) {
            problems.add(where + " has a server_pid that is neither null nor a positive pid: " + serverPid);
        }
        if (!instance.path("server_command").isNull() && !instance.path("server_command").isTextual()) {
            problems.add(where + " has a server_command that is neither null nor text");
        }
        JsonNode served = instance.path("served_pids");
        if (!served.isArray() || served.size() > MAX_ENTRIES) {
            problems.add(where + " has no served_pids list of at most " + MAX_ENTRIES + ": " + served);
        } else {
            served.forEach(pid -> {
                if (!pid.isIntegralNumber() || pid.asLong() <= 0) {
                    problems.add(where + " serves a pid that is none: " + pid);
                }
            });
        }
    }
}
