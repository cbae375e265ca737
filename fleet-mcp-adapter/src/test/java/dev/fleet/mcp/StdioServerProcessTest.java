package dev.fleet.mcp;

import dev.fleet.testing.Patience;
import dev.fleet.domain.lifecycle.Cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The stdio server as an MCP client sees it: a real subprocess driven by the SDK's stdio client. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StdioServerProcessTest {

    /** The contract's top-level verdict fields, in order. */
    private static final List<String> VERDICT_FIELDS = List.of("inventory_complete", "mutation_gate_satisfied",
            "blocked_reason", "blocked_reasons", "expected_member_count", "running_member_count", "members",
            "missing_members", "duplicate_members", "unexpected_members", "stale_registrations",
            "unverified_registrations", "malformed_registrations", "orphaned_instances", "remote_instances",
            "unregistered_processes", "single_cohort", "cohort_ids", "single_revision", "startup_heads", "registry",
            "process_listing", "omitted_entries",
            "verdict_digest", "observation");
    private static final List<String> INSTANCE_FIELDS = List.of("runtime_id", "namespace", "profile", "role", "pid",
            "cohort_id", "cohort_source", "startup_head", "transport", "client_provenance", "registered_at",
            "last_heartbeat_at", "process_started_at", "recorded_process_started_at", "server_pid", "server_command",
            "served_pids");

    private Path temp;
    private McpSyncClient client;

    @BeforeAll
    void startServer(@TempDir Path dir) {
        temp = dir;
        ServerParameters parameters = ServerParameters.builder(Subprocess.java())
                .args(Subprocess.serverArguments(temp.resolve("calls.txt")))
                .addEnvVar(Cohort.ENV_VARIABLE, "cohort-under-test")
                .build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJson.mapper());
        transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
        client = McpClient.sync(transport)
                .requestTimeout(Patience.mcpTimeout())
                .initializationTimeout(Patience.mcpTimeout())
                .build();
        client.initialize();
    }

    @AfterAll
    void stopServer() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    @Test
    void toolsListShowsBothToolsWithAnEmptyInputSchemaReadOnlyAnnotationsAndAnOutputSchema() {
        Map<String, McpSchema.Tool> tools = client.listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));

        assertEquals(Set.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"), tools.keySet());
        for (McpSchema.Tool tool : tools.values()) {
            assertEquals(Map.of("type", "object", "properties", Map.of(), "additionalProperties", false),
                    tool.inputSchema(), tool.name());
            McpSchema.ToolAnnotations annotations = tool.annotations();
            assertEquals(Boolean.TRUE, annotations.readOnlyHint(), tool.name());
            assertEquals(Boolean.FALSE, annotations.destructiveHint(), tool.name());
            assertEquals(Boolean.TRUE, annotations.idempotentHint(), tool.name());
            assertEquals(Boolean.FALSE, annotations.openWorldHint(), tool.name());
            assertNotNull(tool.outputSchema(), tool.name());
            assertEquals("object", tool.outputSchema().get("type"));
        }
        Map<?, ?> verdictProperties = (Map<?, ?>) tools.get("gitea_assess_fleet_inventory").outputSchema()
                .get("properties");
        // The schema also describes omitted_entries (the list caps' counts), whichever verdict carries it.
        List<String> described = new java.util.ArrayList<>(VERDICT_FIELDS);
        described.removeIf("omitted_entries"::equals);
        described.add(described.indexOf("verdict_digest"), "omitted_entries");
        assertEquals(described, List.copyOf(verdictProperties.keySet()));
    }

    @Test
    void assessReturnsTheVerdictAsStructuredContentAndItsCanonicalJsonAsText() {
        CallToolResult result = client.callTool(call("gitea_assess_fleet_inventory", Map.of()));

        assertFalse(Boolean.TRUE.equals(result.isError()), () -> result.content().toString());
        Map<?, ?> verdict = (Map<?, ?>) result.structuredContent();
        assertEquals(VERDICT_FIELDS, List.copyOf(verdict.keySet()));
        assertEquals(false, verdict.get("mutation_gate_satisfied"));
        assertEquals("duplicate_member", verdict.get("blocked_reason"));
        assertEquals(5, verdict.get("expected_member_count"));
        assertEquals(6, verdict.get("running_member_count"));
        assertEquals(false, verdict.get("single_cohort"));
        assertTrue(((String) verdict.get("verdict_digest")).matches("sha256:[0-9a-f]{64}"));
        Map<?, ?> duplicate = (Map<?, ?>) ((List<?>) verdict.get("duplicate_members")).get(0);
        assertEquals(List.of("namespace", "profile", "role", "instances"), List.copyOf(duplicate.keySet()));
        Map<?, ?> instance = (Map<?, ?>) ((List<?>) duplicate.get("instances")).get(0);
        assertEquals(INSTANCE_FIELDS, List.copyOf(instance.keySet()));
        Map<?, ?> observation = (Map<?, ?>) verdict.get("observation");
        assertEquals(List.of("observed_at", "boot_id", "hostname", "host_id", "pid_namespace", "registry_path",
                "answered_by"),
                List.copyOf(observation.keySet()));
        Map<?, ?> answeredBy = (Map<?, ?>) observation.get("answered_by");
        assertEquals("gitea-controller", answeredBy.get("namespace"));

        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertEquals(1, result.content().size());
        assertEquals(CanonicalJson.encode(verdict), text, "the text is the structured content, canonically encoded");
        AnsweredBy server = new AnsweredBy(((Number) answeredBy.get("pid")).longValue(), "gitea-controller",
                "prgs-controller");
        assertEquals(CanonicalJson.encode(VerdictDocument.toTree(FleetClassifier.classify(
                Fixtures.duplicateAuthor(server)))), text, "byte-identical to the domain's own encoding");
    }

    @Test
    void aCallWithEvidenceIsRefused() {
        CallToolResult result = client.callTool(call("gitea_assess_fleet_inventory",
                Map.of("process", Map.of("pid", 4242, "healthy", true, "revision", "abc"))));

        assertEquals(Boolean.TRUE, result.isError());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("accepts no evidence"), text);
        assertTrue(text.contains("observes the fleet itself"), text);
    }

    @Test
    void runtimeContextNamesThisServerAndItsRegistration() throws Exception {
        CallToolResult result = client.callTool(call("gitea_get_runtime_context", Map.of()));

        assertFalse(Boolean.TRUE.equals(result.isError()), () -> result.content().toString());
        Map<?, ?> context = (Map<?, ?>) result.structuredContent();
        assertEquals("prgs-controller", context.get("profile"));
        assertEquals("gitea-controller", context.get("namespace"));
        assertEquals("controller", context.get("role"));
        assertEquals("stdio", context.get("transport"));
        assertEquals("cohort-under-test", context.get("cohort_id"));
        assertEquals("env", context.get("cohort_source"));
        assertEquals(Fixtures.HEAD, context.get("startup_head"), "the head the server was started with");
        Map<?, ?> registration = (Map<?, ?>) context.get("registration");
        assertEquals("registered", registration.get("status"));
        assertEquals(CanonicalJson.encode(context), ((McpSchema.TextContent) result.content().get(0)).text());
        String calls = Files.readString(temp.resolve("calls.txt"));
        assertTrue(calls.startsWith("register " + context.get("runtime_id") + " retention=PT168H\n"), calls);
    }

    private static CallToolRequest call(String tool, Map<String, Object> arguments) {
        return CallToolRequest.builder(tool).arguments(arguments).build();
    }
}
