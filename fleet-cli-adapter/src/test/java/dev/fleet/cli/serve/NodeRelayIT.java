package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code fleet serve -- COMMAND} in front of a real MCP server in another language on its official
 * SDK: the TypeScript SDK's low-level {@code Server} over stdio ({@code src/test/node/server.mjs},
 * {@link NodeMcpChild}), run by node directly and through {@code npx}, driven by the Java SDK's
 * client and by raw JSON-RPC.
 */
class NodeRelayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The contract's bound from the client leaving to the row marked stopped, plus a JVM's own exit. */
    private static final Duration ENDED_WITHIN = Duration.ofSeconds(8 + 4);
    /** Load per core below which a tree that ends on EOF does so within the member's 1 s grace. */
    private static final double QUIET_LOAD = 2;
    private static final List<String> FLEET_TOOLS = List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context");

    @TempDir
    Path dir;

    @BeforeAll
    static void installTheServer() throws Exception {
        NodeMcpChild.install();
    }

    @BeforeEach
    void requireNodeAndNpm() {
        NodeMcpChild.requireNodeAndNpm();
    }

    @Test
    void anSdkClientUsesTheTypeScriptChildsPagedToolsSamplingAndNotificationsAndTheFleetsToolsThroughOneMember()
            throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        WrappedMembers.SdkClient sdk = WrappedMembers.SdkClient.of(
                WrappedMembers.wrapping(registry, "prgs-author", NodeMcpChild.direct()));
        McpSyncClient client = sdk.client();
        List<String> stderr = sdk.stderr();
        try {
            McpSchema.InitializeResult initialized = client.initialize();
            assertEquals("node-child", initialized.serverInfo().name(), "the child's own initialize result");
            assertTrue(initialized.capabilities().resources().subscribe(),
                    "the fleet's verdict is subscribable, though the child said subscribe: false");
            assertTrue(initialized.capabilities().logging() != null, "the child's other capabilities are kept");

            McpSchema.ListToolsResult first = client.listTools(null);
            assertEquals(List.of("echo"), names(first), "the first page, its impostor left out");
            assertEquals("page-2", first.nextCursor(), "the child's cursor, unchanged");
            McpSchema.ListToolsResult last = client.listTools(first.nextCursor());
            assertEquals(List.of("ask", "slow", FLEET_TOOLS.get(0), FLEET_TOOLS.get(1)), names(last),
                    "the last page, then the fleet's tools");
            assertNull(last.nextCursor());
            assertEquals(List.of("echo", "ask", "slow", FLEET_TOOLS.get(0), FLEET_TOOLS.get(1)),
                    names(client.listTools()), "every page, as the SDK client gathers them");

            assertEquals("received 2097152 characters", WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("echo",
                    Map.of("text", "x".repeat(2 * 1024 * 1024))))));
            assertEquals("the client said: 42", WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("ask", Map.of()))),
                    "the child's sampling request reached the client and its answer the child");
            assertEquals("slow is done", WrappedMembers.text(client.callTool(new McpSchema.CallToolRequest("slow", Map.of(),
                    Map.of("progressToken", "p-1")))));
            assertEquals(0.5, sdk.awaitSlowNotifications().progress());

            assertEquals(List.of("node://notes", "fleet://verdict"),
                    client.listResources().resources().stream().map(McpSchema.Resource::uri).toList(),
                    "the child's resources, then the fleet's verdict");
            McpSchema.ReadResourceResult notes = client.readResource(new McpSchema.ReadResourceRequest("node://notes"));
            assertEquals("the node child's notes", ((McpSchema.TextResourceContents) notes.contents().get(0)).text());

            TestFleets.awaitRunningRows(registry, 1);
            McpSchema.CallToolResult verdict = client.callTool(new McpSchema.CallToolRequest(FLEET_TOOLS.get(0),
                    Map.of()));
            JsonNode structured = JSON.valueToTree(verdict.structuredContent());
            assertTrue(structured.path("verdict_digest").asText().startsWith("sha256:"),
                    "the fleet's verdict, not the child's impostor: " + structured);
            assertEquals(1, JSON.readTree(WrappedMembers.text(verdict)).get("running_member_count").asInt(), WrappedMembers.text(verdict));
            assertEquals(1, stderr.stream().filter(line -> line.contains("'" + FLEET_TOOLS.get(0) + "'")).count(),
                    "one warning line names the impostor: " + stderr);
        } finally {
            client.closeGracefully();
        }
    }

    /**
     * The client leaves: the server sees its stdin end and exits, or (lingering, as a server holding a
     * connection pool does) is signalled after the grace; either way the member exits 0 and nothing of
     * the wrapper's tree is left.
     */
    @ParameterizedTest(name = "the server lingers past its stdin: {0}")
    @ValueSource(booleans = {false, true})
    void behindNpxTheServerIsTheWrappersGrandchildAndNoneOfTheTreeOutlivesTheMember(boolean linger) throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = ServeProcess.start(WrappedMembers.wrapping(registry, "prgs-author",
                NodeMcpChild.throughNpx(linger)), "prgs-author", Map.of("npm_config_offline", "true"))) {
            JsonNode initialized = member.initialize();
            assertEquals("node-child", initialized.at("/result/serverInfo/name").asText(), initialized.toString());
            JsonNode echo = member.callTool(2, "echo", "{\"text\":\"four\"}");
            assertEquals("received 4 characters", echo.at("/result/content/0/text").asText(), echo.toString());
            TestFleets.awaitRunningRows(registry, 1);

            Set<ProcessHandle> tree = ConcurrentHashMap.newKeySet();
            long[] server = {-1};
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
                member.process().descendants().forEach(handle -> {
                    tree.add(handle);
                    if (NodeMcpChild.isTheServer(handle.pid())) {
                        server[0] = handle.pid();
                    }
                });
                return server[0] > 0;
            }, "node running server.mjs among the member's descendants");
            assertTrue(tree.size() >= 3, "npm exec, sh and node below the member: " + describe(tree));
            long wrapper = tree.stream().filter(handle -> handle.parent().map(ProcessHandle::pid)
                    .orElse(-1L) == member.pid()).findFirst().orElseThrow().pid();
            assertNotEquals(wrapper, server[0], "the server is not the wrapper itself: " + describe(tree));

            member.closeStdinAt();
            assertTrue(member.exitsWithin(Patience.scaled(ENDED_WITHIN).toMillis()), member.diagnosis(20));
            assertEquals(0, member.process().exitValue(), member.diagnosis(20));
            for (long pid : new long[] {server[0], wrapper}) {
                Patience.await(Duration.ofSeconds(2), Duration.ofMillis(20), () -> !WrappedMembers.runs(pid),
                        "pid " + pid + " to be gone; " + member.diagnosis(20));
            }
            assertTrue(tree.stream().noneMatch(handle -> WrappedMembers.runs(handle.pid()) && handle.isAlive()),
                    "none of the wrapper's tree is left: " + describe(tree));
            // A tree that ends on EOF is given 1 s to: on a starved host it may need the SIGTERM all the same.
            if (linger || Patience.loadFactor() < QUIET_LOAD) {
                assertEquals(linger, member.stderrText().contains("sending SIGTERM"), member.diagnosis(20));
            }
            List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
            assertEquals(1, rows.size(), rows.toString());
            assertEquals("stopped", rows.get(0).status(), rows.toString());
        }
    }

    private static List<String> names(McpSchema.ListToolsResult page) {
        return page.tools().stream().map(McpSchema.Tool::name).toList();
    }

    private static String describe(Set<ProcessHandle> tree) {
        return tree.stream().map(handle -> handle.pid() + " " + handle.info().commandLine().orElse("?")
                + (handle.isAlive() ? " alive" : " gone")).toList().toString();
    }
}
