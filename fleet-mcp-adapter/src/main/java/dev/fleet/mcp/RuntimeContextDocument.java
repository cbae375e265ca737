package dev.fleet.mcp;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServerIdentity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import static dev.fleet.mcp.JsonSchemas.codes;
import static dev.fleet.mcp.JsonSchemas.integer;
import static dev.fleet.mcp.JsonSchemas.nullableInstant;
import static dev.fleet.mcp.JsonSchemas.nullableString;
import static dev.fleet.mcp.JsonSchemas.object;
import static dev.fleet.mcp.JsonSchemas.properties;
import static dev.fleet.mcp.JsonSchemas.string;

/**
 * {@code gitea_get_runtime_context}'s answer: what this server says about itself and where its own
 * registration stands. Like the verdict, a tree of ordered maps that {@code CanonicalJson} encodes.
 */
final class RuntimeContextDocument {

    private RuntimeContextDocument() {
    }

    static Map<String, Object> toTree(ServerIdentity identity, RegistrationState state) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("pid", identity.pid());
        tree.put("profile", identity.profile());
        tree.put("namespace", identity.namespace());
        tree.put("role", identity.role());
        tree.put("transport", identity.transport().code());
        tree.put("endpoint", identity.endpoint());
        Map<String, Object> binding = new LinkedHashMap<>();
        binding.put("remote", identity.binding().remote());
        binding.put("org", identity.binding().org());
        binding.put("repo", identity.binding().repo());
        tree.put("binding", binding);
        tree.put("repository_root", identity.repositoryRoot());
        tree.put("cohort_id", identity.cohort().id());
        tree.put("cohort_source", identity.cohort().source().code());
        tree.put("client_provenance", identity.clientProvenance().code());
        tree.put("startup_head", identity.startupHead());
        tree.put("boot_id", identity.bootId());
        tree.put("process_started_at", Timestamps.format(identity.processStartedAt()));
        tree.put("runtime_id", state.runtimeId());
        tree.put("registration", registration(state));
        return tree;
    }

    private static Map<String, Object> registration(RegistrationState state) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("status", state.status());
        String error = null;
        String registeredAt = null;
        String lastHeartbeatAt = null;
        if (state instanceof RegistrationState.Registered registered) {
            Registration row = registered.registration();
            registeredAt = Timestamps.format(row.tenure().registeredAt());
            lastHeartbeatAt = Timestamps.format(row.tenure().lastHeartbeatAt());
        } else if (state instanceof RegistrationState.Failed failed) {
            error = failed.error();
        }
        tree.put("error", error);
        tree.put("registered_at", registeredAt);
        tree.put("last_heartbeat_at", lastHeartbeatAt);
        return tree;
    }

    static Map<String, Object> schema() {
        return object(properties(
                "pid", integer(),
                "profile", nullableString(),
                "namespace", string(),
                "role", nullableString(),
                "transport", codes(Transport.class),
                "endpoint", nullableString(),
                "binding", object(properties(
                        "remote", nullableString(),
                        "org", nullableString(),
                        "repo", nullableString())),
                "repository_root", nullableString(),
                "cohort_id", nullableString(),
                "cohort_source", codes(CohortSource.class),
                "client_provenance", codes(ClientProvenance.class),
                "startup_head", nullableString(),
                "boot_id", nullableString(),
                "process_started_at", nullableInstant(),
                "runtime_id", nullableString(),
                "registration", object(properties(
                        "status", Map.of("type", "string", "enum", List.of("registered", "failed", "pending")),
                        "error", nullableString(),
                        "registered_at", nullableInstant(),
                        "last_heartbeat_at", nullableInstant()))),
                "This server's own identity and registry registration (or why registration failed).");
    }
}
