package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A plain {@code fleet serve} (the real jar) and the MCP Java SDK 2.2.0's modern client
 * ({@code io.modelcontextprotocol.modern.client.McpClient}), which has both transports: over stdio
 * ({@code StdioMcpClientTransport}, which starts the member) and over streamable HTTP
 * ({@code HttpClientMcpTransport}, to a member started with {@code --transport http}). It discovers
 * both eras (2026-07-28 first; it still speaks 2026-07-28), the tools, calls the assessment and reads
 * {@code fleet://verdict}; both carry the same {@code verdict_digest} as the 2025-era Java client's
 * assessment of the same fleet (over stdio, another member; over HTTP, the same one). Listing 2025-11-25
 * says that era is served through {@code initialize}: a stateless request claiming it in {@code _meta}
 * is still refused with -32022 naming 2026-07-28 alone (raw lines, as no SDK client sends it).
 */
class ModernJavaClientIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "modern-java");
    private static final String ASSESS = "gitea_assess_fleet_inventory";

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"stdio", "http"})
    void theModernJavaClientIsServedTheVerdictOfTheLegacyClient(String transport, @TempDir Path dir)
            throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        boolean http = "http".equals(transport);
        ServeProcess member = http ? ServeProcess.start(registry, "prgs-author", COHORT, "--transport", "http",
                "--port", "0") : null;
        URI endpoint = http ? HttpServeIT.awaitEndpoint(member) : null;
        McpClientTransport modernTransport = http ? HttpClientMcpTransport.builder(endpoint).build()
                : StdioMcpClientTransport.builder(parameters(registry, "prgs-controller"))
                        .jsonMapper(new JacksonMcpJsonMapper(JSON)).start();
        io.modelcontextprotocol.client.McpSyncClient legacy = io.modelcontextprotocol.client.McpClient
                .sync(http ? HttpClientStreamableHttpTransport.builder(endpoint.getScheme() + "://"
                        + endpoint.getAuthority()).endpoint(endpoint.getPath()).jsonMapper(new JacksonMcpJsonMapper(JSON))
                        .build() : new StdioClientTransport(parameters(registry, "prgs-reconciler"),
                                new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Patience.mcpTimeout())
                .initializationTimeout(Patience.mcpTimeout())
                .build();
        try {
            McpSyncClient modern = McpClient.sync(modernTransport)
                    .clientInfo(McpSchema.Implementation.builder("fleet-modern-java-test", "1").build())
                    .roundTimeout(Patience.mcpTimeout())
                    .callTimeout(Patience.mcpTimeout())
                    .build();
            McpSchema.DiscoverResult discovered = modern.discover();
            assertEquals(List.of("2026-07-28", "2025-11-25"), discovered.supportedVersions(), "both eras");
            assertEquals("complete", discovered.resultType());
            assertEquals(Boolean.TRUE, discovered.capabilities().resources().subscribe(), discovered.toString());
            assertEquals(List.of(ASSESS, "gitea_get_runtime_context"),
                    modern.listTools().list().tools().stream().map(McpSchema.Tool::name).toList());
            legacy.initialize();
            assertEquals("2025-11-25", legacy.getCurrentInitializationResult().protocolVersion(), "the 2025 era");
            TestFleets.awaitRunningRows(registry, http ? 1 : 2); // one fleet for both clients' questions

            McpSchema.CallToolResult assessed = modern.tool(ASSESS).arguments(Map.of()).call();
            assertFalse(Boolean.TRUE.equals(assessed.isError()), String.valueOf(assessed.content()));
            assertEquals("complete", assessed.resultType(), "a modern result");
            String modernDigest = digest(((McpSchema.TextContent) assessed.content().get(0)).text());
            String readDigest = digest(((McpSchema.TextResourceContents) modern.resource("fleet://verdict").read()
                    .contents().get(0)).text());
            io.modelcontextprotocol.spec.McpSchema.CallToolResult legacyAssessed = legacy.callTool(
                    new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(ASSESS, Map.of()));
            String legacyDigest = digest(((io.modelcontextprotocol.spec.McpSchema.TextContent) legacyAssessed
                    .content().get(0)).text());
            assertTrue(modernDigest.matches("sha256:[0-9a-f]{64}"), modernDigest);
            assertEquals(legacyDigest, modernDigest, "the eras agree");
            assertEquals(modernDigest, readDigest, "fleet://verdict, as the tool assessed");
        } finally {
            legacy.closeGracefully();
            if (modernTransport instanceof StdioMcpClientTransport stdio) {
                stdio.close();
            }
            if (member != null) {
                member.close();
            }
        }
    }

    @Test
    void aStatelessRequestClaiming2025IsStillRefused(@TempDir Path dir) throws Exception {
        try (ServeProcess member = ServeProcess.start(dir.resolve("control_plane.sqlite3"), "prgs-author", COHORT)) {
            JsonNode discovered = member.request(1, "server/discover", params("2026-07-28"));
            assertEquals("[\"2026-07-28\",\"2025-11-25\"]", discovered.at("/result/supportedVersions").toString(),
                    discovered.toString());
            JsonNode refused = member.request(2, "tools/list", params("2025-11-25"));
            assertEquals(-32022, refused.at("/error/code").asInt(), refused.toString());
            assertEquals("[\"2026-07-28\"]", refused.at("/error/data/supported").toString(), refused.toString());
        }
    }

    /** The params of a stateless request claiming {@code version} in {@code _meta}, as JSON text. */
    private static String params(String version) {
        return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"raw\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}";
    }

    /** {@code fleet serve} for this registry and profile, as the SDKs' stdio transports start it. */
    private static ServerParameters parameters(Path registry, String profile) {
        List<String> command = ServeProcess.serveCommand(registry, profile);
        return ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).env(COHORT).build();
    }

    private static String digest(String verdict) throws IOException {
        return JSON.readTree(verdict).get("verdict_digest").asText();
    }
}
