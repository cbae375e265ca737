package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Java SDK 2.2.0's modern client ({@code io.modelcontextprotocol.modern.client}) through a
 * wrapping member (the real jar) over its stdio transport, the one it has for a member it starts (§13).
 * Around an operator's server on the TypeScript SDK 2.4.0 ({@code serveStdio}): discovered in
 * 2026-07-28, the child's tools and the fleet's two listed, the child's tool answered by the child, the
 * assessment a modern result whose digest {@code fleet://verdict} repeats; once the client has closed,
 * nothing of the member's tree runs. Around a 2025-only server (the 1.32.2 SDK), which knows no
 * {@code server/discover}: the client, which has no fallback, gets the child's own -32601, unchanged.
 */
class ModernJavaClientRelayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ASSESS = "gitea_assess_fleet_inventory";
    private static final String PROFILE = "prgs-author";
    /** Room to see the tree gone once the client's own end is over (see RealClientsShutdownIT). */
    private static final Duration SETTLES_WITHIN = Duration.ofSeconds(4);

    @TempDir
    Path dir;

    @BeforeAll
    static void installTheServers() throws Exception {
        NodeMcpChild.install();
    }

    @Test
    void aModernServerIsServedThroughTheMemberWithTheFleetsTools() throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        Path registry = dir.resolve("registry.sqlite3");
        StdioMcpClientTransport transport = start(registry, List.of("node", NodeMcpChild.MODERN_SERVER.toString()));
        try {
            McpSyncClient client = client(transport);
            McpSchema.DiscoverResult discovered = client.discover();
            assertTrue(discovered.supportedVersions().contains("2026-07-28"), discovered.toString());
            assertEquals(List.of("hello_modern", "confirm_modern", ASSESS, "gitea_get_runtime_context"),
                    client.listTools().list().tools().stream().map(McpSchema.Tool::name).toList(),
                    "the child's tools, then the fleet's");
            assertEquals("hello from the modern child", text(client.tool("hello_modern").arguments(Map.of()).call()));

            McpSchema.CallToolResult assessed = client.tool(ASSESS).arguments(Map.of()).call();
            assertFalse(Boolean.TRUE.equals(assessed.isError()), String.valueOf(assessed.content()));
            assertEquals("complete", assessed.resultType(), "a modern result");
            String digest = digest(text(assessed));
            assertTrue(digest.matches("sha256:[0-9a-f]{64}"), digest);
            String read = ((McpSchema.TextResourceContents) client.resource("fleet://verdict").read().contents().get(0))
                    .text();
            assertEquals(digest, digest(read), "fleet://verdict, as the tool assessed");
        } finally {
            transport.close();
        }
        List<Long> pids = new ArrayList<>();
        for (RegistryRow row : new SqliteRegistryReader(registry).readAll().rows()) {
            pids.add(row.pid());
            pids.add(row.serverPid());
        }
        assertEquals(2, pids.size(), "one member registered: " + pids);
        Patience.await(SETTLES_WITHIN, Duration.ofMillis(20), () -> pids.stream().noneMatch(WrappedMembers::runs),
                "nothing of the member's tree to run once the client has closed: " + pids);
    }

    @Test
    void aServerOf2025AloneAnswersTheDiscoveryItselfAndTheClientHasNoFallback() throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        StdioMcpClientTransport transport = start(dir.resolve("registry.sqlite3"), NodeMcpChild.direct());
        try {
            McpSyncClient client = client(transport);
            RuntimeException refused = assertThrows(RuntimeException.class, client::discover);
            assertTrue(String.valueOf(refused.getMessage()).contains("-32601")
                    || String.valueOf(refused.getMessage()).toLowerCase().contains("method not found"),
                    "the child's own answer to server/discover: " + refused);
        } finally {
            transport.close();
        }
    }

    /** Whatever a failing run left behind is killed: the members of this test's registry and their servers. */
    @AfterEach
    void killWhatIsLeft() {
        WrappedMembers.killWhatIsLeft(dir.resolve("registry.sqlite3"));
    }

    private static StdioMcpClientTransport start(Path registry, List<String> child) {
        List<String> member = WrappedMembers.wrapping(registry, PROFILE, child);
        return StdioMcpClientTransport.builder(ServerParameters.builder(member.get(0))
                .args(member.subList(1, member.size())).build()).jsonMapper(new JacksonMcpJsonMapper(JSON)).start();
    }

    private static McpSyncClient client(StdioMcpClientTransport transport) {
        return McpClient.sync(transport)
                .clientInfo(McpSchema.Implementation.builder("fleet-modern-java-relay-test", "1").build())
                .roundTimeout(Patience.mcpTimeout())
                .callTimeout(Patience.mcpTimeout())
                .build();
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private static String digest(String verdict) throws IOException {
        return JSON.readTree(verdict).get("verdict_digest").asText();
    }
}
