package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.testing.JsonRpcProcess;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet serve -- COMMAND} in front of a real MCP server on the official Java SDK
 * ({@link dev.fleet.cli.serve.SdkChildServer}), driven by the SDK's own client and by a raw
 * JSON-RPC client that compares bytes with the same server run directly.
 */
class RelayIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anSdkClientUsesTheChildsToolsSamplingAndNotificationsAndTheFleetsToolsThroughOneMember() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        WrappedMembers.SdkClient sdk = WrappedMembers.SdkClient.of(
                WrappedMembers.wrapping(registry, "prgs-author", WrappedMembers.sdkChild()));
        McpSyncClient client = sdk.client();
        try {
            McpSchema.InitializeResult initialized = client.initialize();
            assertEquals("sdk-child", initialized.serverInfo().name(), "the child's own initialize result");
            assertTrue(initialized.capabilities().resources().subscribe(), "the fleet's verdict is subscribable");
            assertTrue(initialized.capabilities().logging() != null, "the child's other capabilities are kept");

            List<String> tools = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertEquals(List.of("echo", "ask", "slow", "gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                    tools, "the child's tools, its impostor left out, then the fleet's");

            String twoMebibytes = "x".repeat(2 * 1024 * 1024);
            assertEquals("received 2097152 characters",
                    WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("echo", Map.of("text", twoMebibytes)))));
            assertEquals("the client said: 42", WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("ask", Map.of()))),
                    "the child's sampling request reached the client and its answer the child");
            assertEquals("slow is done", WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("slow",
                    Map.of("token", "p-1")))));
            sdk.awaitSlowNotifications();

            List<RegistryRow> rows = TestFleets.awaitRunningRows(registry, 1);
            JsonNode context = JSON.readTree(WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest(
                    "gitea_get_runtime_context", Map.of()))));
            assertEquals(rows.get(0).pid(), context.get("pid").asLong(), "the fleet answers for itself, not the child");
            JsonNode verdict = JSON.readTree(WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest(
                    "gitea_assess_fleet_inventory", Map.of()))));
            assertEquals(1, verdict.get("running_member_count").asInt(), verdict.toString());
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void everyByteTheChildWritesReachesTheClientUnchangedButTheAmendments() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        List<String> lines = List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"two\",\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":"
                        + "{\"text\":\"h\\u00e9llo \\\"w\\\"\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"vendor/unknown\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}");
        List<String> direct = exchange(WrappedMembers.sdkChild(), lines);
        List<String> relayed = exchange(WrappedMembers.wrapping(registry, "prgs-author", WrappedMembers.sdkChild()),
                lines);
        // The SDK answers concurrently, so answers are compared by id, not by place.
        Map<String, String> directById = byId(direct);
        Map<String, String> relayedById = byId(relayed);
        assertEquals(directById.keySet(), relayedById.keySet(), relayed.toString());
        for (Map.Entry<String, String> answer : directById.entrySet()) {
            if (answer.getKey().equals("1") || answer.getKey().equals("6")) {
                assertNotEquals(answer.getValue(), relayedById.get(answer.getKey()),
                        "initialize and the last tools/list page are amended");
            } else {
                assertEquals(answer.getValue(), relayedById.get(answer.getKey()), "byte for byte");
            }
        }
    }

    private static Map<String, String> byId(List<String> lines) throws Exception {
        Map<String, String> byId = new java.util.TreeMap<>();
        for (String line : lines) {
            byId.put(JSON.readTree(line).path("id").asText(), line);
        }
        return byId;
    }

    /** Sends {@code lines} to a fresh process running {@code command}, and reads stdout until each request is answered. */
    private List<String> exchange(List<String> command, List<String> lines) throws Exception {
        Path stderr = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        try (JsonRpcProcess process = JsonRpcProcess.start(builder, stderr)) {
            for (String line : lines) {
                process.send(line);
            }
            java.util.Set<String> waiting = new java.util.HashSet<>();
            for (String line : lines) {
                JsonNode id = JSON.readTree(line).get("id");
                if (id != null) {
                    waiting.add(id.asText());
                }
            }
            while (!waiting.isEmpty()) {
                waiting.remove(process.next().path("id").asText());
            }
            List<String> out = new ArrayList<>(process.stdoutLines());
            process.closeStdin();
            assertTrue(process.awaitExit(30, TimeUnit.SECONDS), process.stderrText());
            assertFalse(out.isEmpty());
            return out;
        }
    }
}
