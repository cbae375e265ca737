package dev.fleet.cli.serve;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract end to end: the five default members as real {@code fleet serve} processes over stdio
 * on one registry, the controller and the reconciler driven by the SDK's own MCP client, then a
 * sixth server from another cohort, then one member leaving. The steps build on one another.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetServersIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COHORT = "it-cohort-A";
    private static final String ASSESS = "gitea_assess_fleet_inventory";
    private static final String CONTEXT = "gitea_get_runtime_context";

    @TempDir
    static Path dir;

    private Path registry;
    private McpSyncClient controller;
    private McpSyncClient reconciler;
    private final List<ServeProcess> raw = new ArrayList<>();
    private ServeProcess merger;

    @BeforeAll
    void startTheDefaultFive() throws Exception {
        registry = dir.resolve("control_plane.sqlite3");
        for (String profile : List.of("prgs-author", "prgs-reviewer")) {
            raw.add(ServeProcess.start(registry, profile, Map.of("GITEA_MCP_COHORT_ID", COHORT)));
        }
        merger = ServeProcess.start(registry, "prgs-merger", Map.of("GITEA_MCP_COHORT_ID", COHORT));
        raw.add(merger);
        controller = client("prgs-controller", COHORT);
        reconciler = client("prgs-reconciler", COHORT);
        awaitRunningRows(5);
    }

    @AfterAll
    void stopEverything() throws IOException {
        for (McpSyncClient client : List.of(controller, reconciler)) {
            if (client != null) {
                client.closeGracefully();
            }
        }
        for (ServeProcess process : raw) {
            process.close();
        }
    }

    private McpSyncClient client(String profile, String cohort) {
        List<String> command = ServeProcess.serveCommand(registry, profile);
        ServerParameters parameters = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .env(Map.of("GITEA_MCP_COHORT_ID", cohort))
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Patience.mcpTimeout())
                .initializationTimeout(Patience.mcpTimeout())
                .build();
        client.initialize();
        return client;
    }

    private List<RegistryRow> awaitRunningRows(int count) throws InterruptedException {
        return TestFleets.awaitRunningRows(registry, count);
    }

    private static JsonNode verdict(McpSyncClient client) throws IOException {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(ASSESS, Map.of()));
        assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
        JsonNode structured = JSON.valueToTree(result.structuredContent());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertEquals(structured, JSON.readTree(text), "the text carries the same JSON as the structured content");
        return structured;
    }

    /** What two answers about one fleet share, whenever they are given: heartbeats may tick in between. */
    private static JsonNode withoutObservationAndHeartbeats(JsonNode verdict) {
        ObjectNode copy = verdict.deepCopy();
        copy.remove("observation");
        copy.findParents("last_heartbeat_at").forEach(parent -> ((ObjectNode) parent).remove("last_heartbeat_at"));
        return copy;
    }

    private static List<String> codes(JsonNode verdict) {
        List<String> codes = new ArrayList<>();
        verdict.get("blocked_reasons").forEach(reason -> codes.add(reason.get("code").asText()));
        return codes;
    }

    @Test
    @Order(1)
    void everyServerRegisteredItselfWithTheFactsOfItsOwnProcess() throws InterruptedException {
        List<RegistryRow> rows = awaitRunningRows(5);
        assertEquals(List.of("prgs-author", "prgs-controller", "prgs-merger", "prgs-reconciler", "prgs-reviewer"),
                rows.stream().map(RegistryRow::profile).sorted().toList());
        RegistryRow mergerRow = rows.stream().filter(row -> row.profile().equals("prgs-merger")).findFirst().get();
        assertEquals(merger.pid(), mergerRow.pid());
        assertEquals("gitea-merger", mergerRow.namespace());
        assertEquals("merger", mergerRow.role());
        assertEquals(COHORT, mergerRow.cohortId());
        assertEquals("env", mergerRow.cohortSource());
        assertEquals("stdio", mergerRow.transport());
        assertEquals("client_managed", mergerRow.clientProvenance());
        assertTrue(mergerRow.processStartedAt().compareTo(mergerRow.registeredAt()) < 0, mergerRow.toString());
    }

    @Test
    @Order(2)
    void bothToolsAreListedReadOnlyWithClosedInputSchemas() {
        List<McpSchema.Tool> tools = controller.listTools().tools();
        assertEquals(List.of(ASSESS, CONTEXT), tools.stream().map(McpSchema.Tool::name).sorted().toList());
        for (McpSchema.Tool tool : tools) {
            JsonNode input = JSON.valueToTree(tool.inputSchema());
            assertEquals("object", input.get("type").asText());
            assertEquals(0, input.path("properties").size());
            assertFalse(input.get("additionalProperties").asBoolean(true));
            assertTrue(tool.annotations().readOnlyHint());
            assertFalse(tool.annotations().destructiveHint());
            assertTrue(tool.annotations().idempotentHint());
            assertFalse(tool.annotations().openWorldHint());
        }
        McpSchema.Tool assess = tools.stream().filter(tool -> tool.name().equals(ASSESS)).findFirst().get();
        JsonNode output = JSON.valueToTree(assess.outputSchema());
        assertTrue(output.get("properties").has("verdict_digest"), output.toString());
        assertTrue(output.get("properties").has("mutation_gate_satisfied"), output.toString());
    }

    @Test
    @Order(3)
    void theControllerAndTheReconcilerSeeTheSameSatisfiedFleet() throws IOException {
        JsonNode fromController = verdict(controller);
        JsonNode fromReconciler = verdict(reconciler);

        for (JsonNode verdict : List.of(fromController, fromReconciler)) {
            assertTrue(verdict.get("mutation_gate_satisfied").asBoolean(), verdict.toString());
            assertTrue(verdict.get("inventory_complete").asBoolean());
            assertEquals(5, verdict.get("running_member_count").asInt());
            assertTrue(verdict.get("single_cohort").asBoolean());
            assertEquals(List.of(COHORT), List.of(verdict.get("cohort_ids").get(0).asText()));
        }
        assertEquals(fromController.get("verdict_digest"), fromReconciler.get("verdict_digest"));
        assertEquals("gitea-controller", fromController.at("/observation/answered_by/namespace").asText());
        assertEquals("prgs-reconciler", fromReconciler.at("/observation/answered_by/profile").asText());

        // The CLI prints the very verdict the tool returns, answered by nobody.
        FleetJar.Run cli = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                TestFleets.roster(registry).toString(), "--format", "json");
        assertEquals(0, cli.exitCode(), cli.stderr());
        ObjectNode fromCli = (ObjectNode) JSON.readTree(cli.stdout());
        assertTrue(fromCli.at("/observation/answered_by").isNull());
        assertEquals(fromController.get("verdict_digest"), fromCli.get("verdict_digest"));
        assertEquals(withoutObservationAndHeartbeats(fromController), withoutObservationAndHeartbeats(fromCli));
    }

    @Test
    @Order(4)
    void evidenceFromTheCallerIsRefused() {
        McpSchema.CallToolResult result = controller.callTool(new McpSchema.CallToolRequest(ASSESS,
                Map.of("process", Map.of("pid", 1, "started_at", "2026-01-01T00:00:00Z"))));
        assertTrue(result.isError());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("accepts no evidence"), text);
    }

    @Test
    @Order(5)
    void theRuntimeContextNamesThisServer() throws IOException {
        McpSchema.CallToolResult result = controller.callTool(new McpSchema.CallToolRequest(CONTEXT, Map.of()));
        JsonNode context = JSON.valueToTree(result.structuredContent());
        assertEquals("prgs-controller", context.get("profile").asText(), context.toString());
        assertEquals("gitea-controller", context.get("namespace").asText());
        assertEquals("controller", context.get("role").asText());
        assertEquals("stdio", context.get("transport").asText());
        assertEquals(COHORT, context.get("cohort_id").asText());
    }

    @Test
    @Order(6)
    void aSixthServerFromAnotherCohortIsADuplicateAndSplitsTheCohort() throws Exception {
        raw.add(ServeProcess.start(registry, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "it-cohort-B")));
        awaitRunningRows(6);

        JsonNode fromController = verdict(controller);
        JsonNode fromReconciler = verdict(reconciler);

        assertEquals(List.of("duplicate_member", "cohort_split"), codes(fromReconciler));
        assertFalse(fromReconciler.get("mutation_gate_satisfied").asBoolean());
        assertFalse(fromReconciler.get("single_cohort").asBoolean());
        assertEquals(6, fromReconciler.get("running_member_count").asInt());
        assertEquals("prgs-author", fromReconciler.at("/duplicate_members/0/profile").asText());
        assertEquals(2, fromReconciler.at("/duplicate_members/0/instances").size());
        assertEquals(fromController.get("verdict_digest"), fromReconciler.get("verdict_digest"));
    }

    @Test
    @Order(7)
    void aMemberWhoseClientLeavesMarksItselfStoppedExitsAndShowsMissing() throws Exception {
        merger.send(""); // a stray blank line from a client is no reason to leave the fleet
        merger.send("  \t");
        merger.initialize();
        JsonNode call = merger.request(2, "tools/call", "{\"name\":\"" + ASSESS + "\",\"arguments\":{}}");
        assertTrue(call.at("/result/structuredContent/verdict_digest").asText().startsWith("sha256:"));

        long closedAt = merger.closeStdinAndDrain();

        // Six members of this class heartbeat beside it: the 2 s of the contract, as this host's load allows.
        long bound = Patience.scaled(Duration.ofSeconds(2)).toMillis();
        assertTrue(merger.exitsWithin(Patience.scaled(Duration.ofSeconds(5)).toMillis()));
        long exitedAfterMillis = (System.nanoTime() - closedAt) / 1_000_000;
        assertTrue(exitedAfterMillis < bound, "exited " + exitedAfterMillis + " ms after stdin EOF; the contract: "
                + "within 2 s (" + Patience.describe() + ")");
        assertTrue(merger.stdoutLines().size() >= 2, "every stdout line was checked as JSON-RPC");
        Optional<RegistryRow> row = new SqliteRegistryReader(registry).readAll().rows().stream()
                .filter(candidate -> candidate.pid() == merger.pid()).findFirst();
        assertEquals("stopped", row.orElseThrow().status());
        assertTrue(row.get().stoppedAt() != null);

        JsonNode after = verdict(controller);
        assertTrue(codes(after).contains("missing_member"), codes(after).toString());
        assertEquals("gitea-merger", after.at("/missing_members/0/namespace").asText());
    }
}
