package dev.fleet.mcp;

import static dev.fleet.mcp.JsonSchemas.arrayOf;
import static dev.fleet.mcp.JsonSchemas.bool;
import static dev.fleet.mcp.JsonSchemas.codes;
import static dev.fleet.mcp.JsonSchemas.extend;
import static dev.fleet.mcp.JsonSchemas.instant;
import static dev.fleet.mcp.JsonSchemas.integer;
import static dev.fleet.mcp.JsonSchemas.nullableBool;
import static dev.fleet.mcp.JsonSchemas.nullableCodes;
import static dev.fleet.mcp.JsonSchemas.nullableInstant;
import static dev.fleet.mcp.JsonSchemas.nullableString;
import static dev.fleet.mcp.JsonSchemas.object;
import static dev.fleet.mcp.JsonSchemas.properties;
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
import java.util.List;
import java.util.Map;

/**
 * The output schema of {@code gitea_assess_fleet_inventory}: the contract's verdict, field for field, as
 * {@link dev.fleet.domain.verdict.VerdictDocument} writes it. Every code is enumerated from the
 * domain's own enums. Objects are left open to additional properties so that a later, additive
 * field never turns a valid verdict into a schema failure (the SDK validates structured content
 * against this schema before sending it).
 */
final class VerdictOutputSchema {

    private VerdictOutputSchema() {
    }

    static Map<String, Object> schema() {
        Map<String, Object> member = properties(
                "namespace", string(),
                "profile", string(),
                "role", string());
        Map<String, Object> instance = instance();
        Map<String, Object> memberWithInstances = object(extend(member, "instances", arrayOf(object(instance))));

        return object(properties(
                "inventory_complete", bool(),
                "mutation_gate_satisfied", bool(),
                "blocked_reason", nullableCodes(BlockedCode.class),
                "blocked_reasons", arrayOf(object(properties(
                        "code", codes(BlockedCode.class),
                        "detail", string(),
                        "action", string()))),
                "expected_member_count", integer(),
                "running_member_count", integer(),
                "members", arrayOf(object(extend(member,
                        "state", codes(MemberState.class),
                        "instances", arrayOf(object(instance))))),
                "missing_members", arrayOf(object(member)),
                "duplicate_members", arrayOf(memberWithInstances),
                "unexpected_members", arrayOf(object(extend(instance, "reason", codes(UnexpectedReason.class)))),
                "stale_registrations", arrayOf(object(extend(instance, "reason", codes(StaleReason.class)))),
                "unverified_registrations",
                arrayOf(object(extend(instance, "reason", codes(UnverifiedReason.class)))),
                "malformed_registrations", arrayOf(object(properties(
                        "runtime_id", nullableString(),
                        "reason", codes(MalformedReason.class)))),
                "unregistered_processes", arrayOf(object(properties(
                        "pid", integer(),
                        "started_at", nullableInstant(),
                        "command_line", nullableString(),
                        "reason", codes(UnregisteredReason.class)))),
                "single_cohort", nullableBool(),
                "cohort_ids", arrayOf(string()),
                "single_revision", nullableBool(),
                "startup_heads", arrayOf(string()),
                "registry", object(properties(
                        "readable", bool(),
                        "reason", nullableCodes(RegistryReason.class),
                        "registration_count", integer())),
                "process_listing", object(properties(
                        "available", bool(),
                        "reason", nullableCodes(ListingReason.class),
                        "server_process_count", integer())),
                // The capped lists (docs/CONTRACT.md) and how many entries each left out; {} when none.
                "omitted_entries", Map.of("type", "object", "additionalProperties", integer()),
                "verdict_digest", Map.of("type", "string", "pattern", "^sha256:[0-9a-f]{64}$"),
                "observation", object(properties(
                        "observed_at", instant(),
                        "boot_id", nullableString(),
                        "hostname", nullableString(),
                        "pid_namespace", nullableString(),
                        "registry_path", nullableString(),
                        "answered_by", Map.of(
                                "type", List.of("object", "null"),
                                "properties", properties("pid", integer(), "namespace", string(), "profile", nullableString()),
                                "required", List.of("pid", "namespace", "profile"))))),
                "The fleet inventory verdict (docs/CONTRACT.md): whether the fleet is exactly the roster, one cohort, one "
                        + "revision, and every reason it is not.");
    }

    /** The contract's Instance / Registration: a row's facts plus the observed start of its pid. */
    private static Map<String, Object> instance() {
        return properties(
                "runtime_id", string(),
                "namespace", string(),
                "profile", nullableString(),
                "role", nullableString(),
                "pid", integer(),
                "cohort_id", nullableString(),
                "cohort_source", string(),
                "startup_head", nullableString(),
                "transport", nullableString(),
                "client_provenance", nullableString(),
                "registered_at", instant(),
                "last_heartbeat_at", instant(),
                "process_started_at", nullableInstant(),
                "recorded_process_started_at", nullableInstant());
    }
}
