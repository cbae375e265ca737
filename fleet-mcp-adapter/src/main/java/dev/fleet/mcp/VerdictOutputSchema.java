package dev.fleet.mcp;

import static dev.fleet.mcp.JsonSchemas.arrayOf;
import static dev.fleet.mcp.JsonSchemas.bool;
import static dev.fleet.mcp.JsonSchemas.described;
import static dev.fleet.mcp.JsonSchemas.enumOf;
import static dev.fleet.mcp.JsonSchemas.integer;
import static dev.fleet.mcp.JsonSchemas.nullableBool;
import static dev.fleet.mcp.JsonSchemas.nullableInteger;
import static dev.fleet.mcp.JsonSchemas.nullableString;
import static dev.fleet.mcp.JsonSchemas.openObject;
import static dev.fleet.mcp.JsonSchemas.ref;
import static dev.fleet.mcp.JsonSchemas.shape;
import static dev.fleet.mcp.JsonSchemas.string;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.verdict.BlockedCode;
import dev.fleet.domain.verdict.MemberState;
import dev.fleet.domain.verdict.StaleReason;
import dev.fleet.domain.verdict.UnexpectedReason;
import dev.fleet.domain.verdict.UnregisteredReason;
import dev.fleet.domain.verdict.UnverifiedReason;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The output schema of {@code gitea_assess_fleet_inventory}: the contract's verdict, field for field, as
 * {@link dev.fleet.domain.verdict.VerdictDocument} writes it.
 *
 * <p>A client puts every tool definition of every member into a model's context (five members,
 * five copies), so the tool's compact entry must stay within 6.5 KB (ToolSurfaceTest measures it).
 * Hence: each shape is defined once under {@code $defs} (Member, Instance, the blocked-reason
 * entry and its code) and referred to; the member lists share Member (state and instances absent
 * where a list has none) and the three flagged lists share Instance, whose {@code reason} is one of
 * their codes; every property carries a one-line description from the contract (a model cannot
 * read the repository's docs); {@code observation}, which is never digested nor gated on, names its
 * fields in its description instead of typing each, and so does {@code orphaned_instances} for the two
 * fields its entries add to Instance; properties are not listed as required (the
 * verdict always has every field, so the list would only repeat the names). Every code is an enum
 * derived from the domain's own enums, so a new code arrives here by itself. Objects stay open to
 * additional properties, so an additive field never turns a valid verdict into a schema failure
 * (the SDK validates structured content against this schema before sending it).
 */
final class VerdictOutputSchema {

    private VerdictOutputSchema() {
    }

    static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.putAll(gateAndMembers());
        properties.putAll(flaggedEntries());
        properties.putAll(cohortsAndSources());
        Map<String, Object> schema = openObject(properties);
        schema.put("$defs", definitions());
        return schema;
    }

    /** The shapes the verdict refers to: Member, Instance, the blocked-reason entry and its code. */
    private static Map<String, Object> definitions() {
        Map<String, Object> defs = new LinkedHashMap<>();
        defs.put("Member", shape(fields(
                "namespace", string(), "Namespace",
                "profile", nullableString(), "Profile",
                "role", nullableString(), "Role",
                "state", enumOf(MemberState.class, false), "In members only",
                "instances", arrayOf(ref("Instance")), "Instances")));
        defs.put("Instance", shape(fields(
                "runtime_id", string(), "Per start",
                "namespace", string(), "Namespace",
                "profile", nullableString(), "Profile",
                "role", nullableString(), "Role",
                "pid", integer(), "Process id",
                "cohort_id", nullableString(), "Cohort",
                "cohort_source", string(), "Origin",
                "startup_head", nullableString(), "Git HEAD",
                "transport", nullableString(), "Transport",
                "client_provenance", nullableString(), "Starter",
                "registered_at", string(), "UTC",
                "last_heartbeat_at", string(), "Not digested",
                "process_started_at", nullableString(), "Observed start",
                "recorded_process_started_at", nullableString(), "Start recorded",
                "server_pid", nullableInteger(), "Wrapped server",
                "server_command", nullableString(), "Its argv, masked",
                "served_pids", arrayOf(integer()), "Served, not strays",
                "reason", Map.of("enum", codes(UnexpectedReason.class, StaleReason.class, UnverifiedReason.class)),
                "Why listed",
                "host_id", nullableString(), "Other host")));
        defs.put("BlockedCode", enumOf(BlockedCode.class, false));
        defs.put("BlockedReason", shape(fields(
                "code", ref("BlockedCode"), "Code",
                "detail", string(), "Who",
                "action", string(), "What to do")));
        return defs;
    }

    /** The verdict's first fields: the gate, why it is closed, and the roster's members. */
    private static Map<String, Object> gateAndMembers() {
        return fields(
                "inventory_complete", bool(), "False if unknown",
                "mutation_gate_satisfied", bool(), "Gate on this alone",
                "blocked_reason", Map.of("anyOf", List.of(ref("BlockedCode"), Map.of("type", "null"))),
                "First code, or null",
                "blocked_reasons", arrayOf(ref("BlockedReason")), "By priority",
                "expected_member_count", integer(), "Roster size",
                "running_member_count", integer(), "Instances",
                "members", arrayOf(ref("Member")), "Roster members",
                "missing_members", arrayOf(ref("Member")), "No instance",
                "duplicate_members", arrayOf(ref("Member")), "2+ instances");
    }

    /** The flagged lists: instances, rows and processes that are not a healthy member. */
    private static Map<String, Object> flaggedEntries() {
        return fields(
                "unexpected_members", arrayOf(ref("Instance")), "Not in roster",
                "stale_registrations", arrayOf(ref("Instance")), "Dead; never block",
                "unverified_registrations", arrayOf(ref("Instance")), "Unverifiable",
                "malformed_registrations", arrayOf(shape(fields(
                        "runtime_id", nullableString(), "Row id",
                        "reason", enumOf(MalformedReason.class, false), "First defect"))),
                "Unreadable rows",
                "orphaned_instances", arrayOf(ref("Instance")), "parent_pid, parent_started_at; client gone",
                "remote_instances", arrayOf(ref("Instance")), "Other hosts",
                "unregistered_processes", arrayOf(shape(fields(
                        "pid", integer(), "Process id",
                        "started_at", nullableString(), "Start",
                        "command_line", nullableString(), "Command line",
                        "reason", enumOf(UnregisteredReason.class, false), "Why"))),
                "Unregistered");
    }

    /** Cohorts and revisions, the two evidence sources, the digest and the undigested observation. */
    private static Map<String, Object> cohortsAndSources() {
        return fields(
                "single_cohort", nullableBool(), "Null if unknown",
                "cohort_ids", arrayOf(string()), "Cohorts",
                "single_revision", nullableBool(), "Null if unknown",
                "startup_heads", arrayOf(string()), "Revisions",
                "registry", openObject(fields(
                        "readable", bool(), "Read",
                        "reason", enumOf(RegistryReason.class, true), "Why not",
                        "registration_count", integer(), "Rows")),
                "Registry",
                "process_listing", openObject(fields(
                        "available", bool(), "Read",
                        "reason", enumOf(ListingReason.class, true), "Why not",
                        "server_process_count", integer(), "Servers")),
                "Process table",
                "omitted_entries", Map.of("type", "object", "additionalProperties", integer()),
                "Cut entries",
                "verdict_digest", Map.of("type", "string", "pattern", "^sha256:[0-9a-f]{64}$"),
                "Equal on every member",
                "observation", Map.of("type", "object"),
                "observed_at, boot_id, hostname, host_id, pid_namespace, registry_path, answered_by; undigested");
    }

    /** The codes of several domain enums, in declaration order, each once: a list may hold any of them. */
    @SafeVarargs
    private static List<Object> codes(Class<? extends dev.fleet.domain.Code>... types) {
        Set<Object> codes = new LinkedHashSet<>();
        for (Class<? extends dev.fleet.domain.Code> type : types) {
            for (dev.fleet.domain.Code code : type.getEnumConstants()) {
                codes.add(code.code());
            }
        }
        return List.copyOf(codes);
    }

    /** Properties from (name, schema, description) triples, in the document's order. */
    private static Map<String, Object> fields(Object... namesSchemasDescriptions) {
        if (namesSchemasDescriptions.length % 3 != 0) {
            throw new IllegalArgumentException("fields come in name/schema/description triples");
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < namesSchemasDescriptions.length; i += 3) {
            @SuppressWarnings("unchecked")
            Map<String, Object> schema = (Map<String, Object>) namesSchemasDescriptions[i + 1];
            properties.put((String) namesSchemasDescriptions[i], described(schema, (String) namesSchemasDescriptions[i + 2]));
        }
        return properties;
    }
}
