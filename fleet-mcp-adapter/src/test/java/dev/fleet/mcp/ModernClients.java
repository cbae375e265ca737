package dev.fleet.mcp;

import dev.fleet.mcp.http.RunningHttpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import java.util.List;
import java.util.Map;

/** The Java SDK 2.2.0's client of the 2026-07-28 era, over streamable HTTP (its one transport to a server it did not start). */
final class ModernClients {

    private ModernClients() {
    }

    /** A modern client of {@code running}, with the tests' patience. */
    static McpSyncClient of(RunningHttpServer running) {
        HttpClientMcpTransport transport = HttpClientMcpTransport
                .builder("http://127.0.0.1:" + running.port() + StreamableHttpEndpoint.ENDPOINT)
                .build();
        return McpClient.sync(transport)
                .clientInfo(McpSchema.Implementation.builder("fleet-tests", "1").build())
                .roundTimeout(Patience.mcpTimeout())
                .callTimeout(Patience.mcpTimeout())
                .build();
    }

    /** The text of the assessment tool's answer, with no arguments. */
    static String assessment(McpSyncClient client) {
        McpSchema.CallToolResult result = client.tool(AssessFleetInventoryTool.NAME).arguments(Map.of()).call();
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** The text of {@code fleet://verdict}. */
    static String verdict(McpSyncClient client) {
        List<McpSchema.ResourceContents> contents = client.resource(VerdictResource.URI).read().contents();
        return ((McpSchema.TextResourceContents) contents.get(0)).text();
    }
}
