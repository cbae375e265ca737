package dev.fleet.mcp.http;

import dev.fleet.testing.Patience;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.FleetMcpServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Transport;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The streamable HTTP runner in process, on an ephemeral loopback port, driven by the SDK's HTTP client. */
class HttpServerTest {

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final FleetMcpServer fleet = Fixtures.httpServer(registry);

    @Test
    void anSdkClientInitializesListsAndCallsOverStreamableHttpAndCloseMarksTheRowStopped() {
        RunningHttpServer running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        try {
            assertTrue(running.port() > 0, "port 0 binds an ephemeral port");
            assertEquals(URI.create("http://127.0.0.1:" + running.port() + "/mcp"), running.endpoint());
            assertTrue(registry.calls().get(0).startsWith("register "), "registered once the socket is bound");
            assertEquals(Transport.STREAMABLE_HTTP, registry.rows().get(0).transport().known());
            assertEquals("http://127.0.0.1:" + running.port() + "/mcp", registry.rows().get(0).endpoint(),
                    "the row records the endpoint really bound (port 0 included)");

            try (McpSyncClient client = client(running)) {
                McpSchema.InitializeResult initialized = client.initialize();
                assertEquals("fleet", initialized.serverInfo().name());

                List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
                assertEquals(List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"), names);

                CallToolResult assess = client.callTool(call("gitea_assess_fleet_inventory", Map.of()));
                assertFalse(Boolean.TRUE.equals(assess.isError()), () -> assess.content().toString());
                String expected = CanonicalJson.encode(VerdictDocument.toTree(FleetClassifier.classify(
                        Fixtures.duplicateAuthor(Fixtures.httpIdentity().answeredBy()))));
                assertEquals(expected, ((McpSchema.TextContent) assess.content().get(0)).text());
                assertEquals(expected, CanonicalJson.encode(assess.structuredContent()));

                CallToolResult refused = client.callTool(call("gitea_assess_fleet_inventory",
                        Map.of("process", Map.of("pid", 1))));
                assertEquals(Boolean.TRUE, refused.isError());
                assertTrue(((McpSchema.TextContent) refused.content().get(0)).text().contains("accepts no evidence"));

                Map<?, ?> context = (Map<?, ?>) client.callTool(
                        call("gitea_get_runtime_context", Map.of())).structuredContent();
                assertEquals("streamable_http", context.get("transport"));
                assertEquals(running.endpoint().toString(), context.get("endpoint"));
                assertEquals("registered", ((Map<?, ?>) context.get("registration")).get("status"));
                assertEquals(registry.rows().get(0).runtimeId(), context.get("runtime_id"));
            }
        } finally {
            running.close();
        }
        running.close();

        assertEquals(1, registry.count("markStopped"), "close marks the row stopped, once");
        assertEquals(RegistrationStatus.STOPPED, registry.rows().get(0).tenure().status());
    }

    @Test
    void aFailedRegistrationIsReportedAndTheServerKeepsServing() {
        registry.failRegistrationsWith(new IllegalStateException("database is locked"));
        try (RunningHttpServer running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
                McpSyncClient client = client(running)) {
            client.initialize();

            Map<?, ?> context = (Map<?, ?>) client.callTool(
                    call("gitea_get_runtime_context", Map.of())).structuredContent();
            CallToolResult assess = client.callTool(call("gitea_assess_fleet_inventory", Map.of()));

            Map<?, ?> registration = (Map<?, ?>) context.get("registration");
            assertEquals("failed", registration.get("status"));
            assertEquals("database is locked", registration.get("error"));
            assertFalse(Boolean.TRUE.equals(assess.isError()), "still serving");
        }
        assertEquals(0, registry.count("markStopped"));
    }

    @Test
    void aCrossSiteOriginIsRejectedAndAnAddressInUseIsOneClearError() throws Exception {
        try (RunningHttpServer running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0)) {
            HttpRequest request = HttpRequest.newBuilder(running.endpoint())
                    .header("Origin", "http://evil.example")
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                    .build();
            HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(403, response.statusCode(), response.body());

            IllegalStateException taken = assertThrows(IllegalStateException.class,
                    () -> start(StreamableHttpEndpoint.DEFAULT_HOST, running.port()));
            assertEquals("cannot serve MCP on 127.0.0.1:" + running.port() + ": port " + running.port() + " is in use "
                    + "(another fleet serve?); pick another with --port, or --port 0 for any free one",
                    taken.getMessage());
        }
    }

    /** An address no interface has (TEST-NET-1's): the system's reason, said in the operator's terms, not Jetty's bare line. */
    @Test
    void anAddressNoInterfaceHasIsSaidSo() throws Exception {
        Path nonlocal = Path.of("/proc/sys/net/ipv4/ip_nonlocal_bind");
        Assumptions.assumeFalse(Files.isReadable(nonlocal) && Files.readString(nonlocal).strip().equals("1"),
                "this host lets a socket bind any address (ip_nonlocal_bind)");
        IllegalStateException unbound = assertThrows(IllegalStateException.class, () -> start("192.0.2.1", 0));
        assertTrue(unbound.getMessage().startsWith("cannot serve MCP on 192.0.2.1:0: no network interface of this host "
                + "has that address (Cannot assign requested address"), unbound.getMessage());
    }

    /** The server's mapper reads non-object arguments wrapped, over HTTP as over stdio: the tool refuses them. */
    @Test
    void argumentsThatAreNotAnObjectAreRefusedByTheToolOverHttpToo() throws Exception {
        try (RunningHttpServer running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0)) {
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> initialized = post(http, running, null, "{\"jsonrpc\":\"2.0\",\"id\":1,"
                    + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
            String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
            post(http, running, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

            int id = 2;
            for (String arguments : List.of("[]", "\"x\"", "5")) {
                HttpResponse<String> response = post(http, running, session, "{\"jsonrpc\":\"2.0\",\"id\":" + id++
                        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"gitea_assess_fleet_inventory\","
                        + "\"arguments\":" + arguments + "}}");

                assertEquals(200, response.statusCode(), response.body());
                assertFalse(response.body().contains("\"error\""), () -> arguments + ": " + response.body());
                assertTrue(response.body().contains("\"isError\":true"), () -> arguments + ": " + response.body());
                assertTrue(response.body().contains("accepts no evidence"), () -> arguments + ": " + response.body());
            }
        }
    }

    private static HttpResponse<String> post(HttpClient http, RunningHttpServer running, String session, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(running.endpoint())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .timeout(Patience.scaled(Duration.ofSeconds(60)))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static McpSyncClient client(RunningHttpServer running) {
        return Fixtures.httpClient(running, client -> client);
    }

    private static CallToolRequest call(String tool, Map<String, Object> arguments) {
        return CallToolRequest.builder(tool).arguments(arguments).build();
    }

    private RunningHttpServer start(String host, int port) {
        return StreamableHttpEndpoint.start(fleet, host, port);
    }
}
