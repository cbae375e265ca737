package dev.fleet.cli.serve;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.Python3;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import dev.fleet.testing.Promtool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One {@code fleet serve --transport http} process: bound to loopback, registered, answering. */
class HttpServeIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ENDPOINT = Pattern.compile("serving MCP on (http://\\S+)");

    static URI awaitEndpoint(ServeProcess server) throws Exception {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
        while (System.nanoTime() < deadline) {
            Matcher matcher = ENDPOINT.matcher(server.stderrText());
            if (matcher.find()) {
                return URI.create(matcher.group(1));
            }
            assertTrue(server.process().isAlive(), server.stderrText());
            Thread.sleep(50);
        }
        throw new AssertionError("the server never said where it listens:\n" + server.stderrText());
    }

    @Test
    void servesBothToolsOverStreamableHttpAndRegistersAsOperatorManaged(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "http"),
                "--transport", "http", "--port", "0")) {
            URI endpoint = awaitEndpoint(server);
            assertEquals("127.0.0.1", endpoint.getHost());

            McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport
                            .builder(endpoint.getScheme() + "://" + endpoint.getAuthority())
                            .endpoint(endpoint.getPath())
                            .jsonMapper(new JacksonMcpJsonMapper(JSON))
                            .build())
                    .requestTimeout(Patience.mcpTimeout())
                    .initializationTimeout(Patience.mcpTimeout())
                    .build();
            try {
                client.initialize();
                assertEquals(List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                        client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList());
                McpSchema.CallToolResult result = client.callTool(
                        new McpSchema.CallToolRequest("gitea_assess_fleet_inventory", Map.of()));
                assertFalse(Boolean.TRUE.equals(result.isError()));
                JsonNode verdict = JSON.valueToTree(result.structuredContent());
                assertEquals(1, verdict.get("running_member_count").asInt(), verdict.toString());
                assertEquals(server.pid(), verdict.at("/observation/answered_by/pid").asLong());
            } finally {
                client.closeGracefully();
            }

            RegistryRow row = new SqliteRegistryReader(registry).readAll().rows().get(0);
            assertEquals(server.pid(), row.pid());
            assertEquals("streamable_http", row.transport());
            assertEquals("operator_managed", row.clientProvenance());
            assertEquals(endpoint.toString(), row.endpoint(), "the row records where it listens");
            FleetJar.Run text = FleetJar.run("registry", "list", "--wide", "--registry", registry.toString());
            assertTrue(text.stdout().contains(endpoint.toString()), text.stdout());
            JsonNode listed = FleetJar.run("registry", "list", "--registry", registry.toString(), "--format", "json")
                    .stdoutJson();
            assertEquals(endpoint.toString(), listed.get("rows").get(0).get("endpoint").asText(), listed.toString());
            assertFalse(server.stderrText().contains("warning"), server.stderrText());

            server.process().destroy(); // SIGTERM, as an operator stopping a daemon would
            assertTrue(server.exitsWithin(Patience.scaled(Duration.ofSeconds(2)).toMillis()),
                    "the server exits within 2 s of SIGTERM (" + Patience.describe() + ")");
            assertEquals("stopped", new SqliteRegistryReader(registry).readAll().rows().get(0).status());
        }
    }

    /**
     * A client that deletes its session while it holds the session's GET stream, and then hangs up, gets every
     * connection back within seconds: the SDK forgot such a session but kept its stream suspended, nothing wrote to
     * it again, and its connection stayed in CLOSE-WAIT for good (an audit filled the cap of 64 in 8 s).
     */
    @Test
    void streamsOfSessionsDeletedUnderThemGiveTheirConnectionsBack(@TempDir Path dir) throws Exception {
        Python3.require("the deleted sessions' streams test");
        try (ServeProcess server = ServeProcess.start(dir.resolve("control_plane.sqlite3"), "prgs-author", Map.of(),
                "--transport", "http", "--port", "0")) {
            int port = awaitEndpoint(server).getPort();
            Process client = new ProcessBuilder("python3", Path.of("src/test/python/stream_then_delete.py")
                    .toAbsolutePath().toString(), Integer.toString(port), "1000").inheritIO().start();
            try {
                assertTrue(client.waitFor(Patience.scaled(Duration.ofMinutes(3)).toMillis(), TimeUnit.MILLISECONDS));
                assertEquals(0, client.exitValue());
            } finally {
                client.destroyForcibly(); // never outlives the test, even one that timed out
            }

            long give = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
            while (closeWaiting(port) > 0 && System.nanoTime() < give) {
                Thread.sleep(100);
            }
            assertEquals(0, closeWaiting(port), "connections the client closed, still held by the server");
        }
    }

    /**
     * A session subscribed to the verdict with no GET stream open cannot be told of a change, which is normal in
     * MCP: it costs no ERROR line with a stack trace per session per change (250 such sessions wrote 2.5 MB of
     * stderr for five changes), and a session that opens its stream is told as before.
     */
    @Test
    void aSubscribedSessionWithoutAStreamCostsNoStackTracePerChange(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of(),
                "--transport", "http", "--port", "0")) {
            URI endpoint = awaitEndpoint(server);
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> started = http.send(mcpPost(endpoint, null, "{\"jsonrpc\":\"2.0\",\"id\":1,"
                    + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"no-stream\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
            String session = started.headers().firstValue("Mcp-Session-Id").orElseThrow();
            http.send(mcpPost(endpoint, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> subscribed = http.send(mcpPost(endpoint, session, "{\"jsonrpc\":\"2.0\",\"id\":2,"
                    + "\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"fleet://verdict\"}}"),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, subscribed.statusCode(), subscribed.body());

            // A change: a row of a member that is not running (stale) joins the verdict.
            new SqliteRegistryWriter(registry).register(RowBuilder.registered(Roster.defaultRoster().members().get(1),
                    ProcessHandle.current().pid() + 1_000_000).registration(), java.util.Optional.empty());
            Thread.sleep(Patience.scaled(Duration.ofSeconds(4)).toMillis()); // a few of the watcher's looks

            assertFalse(server.stderrText().contains("Failed to notify"), server.stderrText());
            assertFalse(server.stderrText().contains("\tat "), "no stack trace: " + server.stderrText());
        }
    }

    private static HttpRequest mcpPost(URI endpoint, String session, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return request.build();
    }

    /** The connections on local {@code port} whose peer has closed its end (TCP CLOSE_WAIT, state 08). */
    private static long closeWaiting(int port) throws IOException {
        String local = String.format(":%04X", port);
        return Files.readAllLines(Path.of("/proc/net/tcp")).stream().skip(1).map(String::trim)
                .map(line -> line.split("\\s+"))
                .filter(fields -> fields.length > 3 && fields[1].endsWith(local) && fields[3].equals("08")).count();
    }

    /** {@code GET /metrics} over real HTTP: a fresh assessment per scrape, OpenMetrics when asked, promtool-clean. */
    @Test
    void metricsAnswerOverRealHttpWithAFreshAssessment(@TempDir Path dir) throws Exception {
        Path promtool = Promtool.require();
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "http"),
                "--transport", "http", "--port", "0")) {
            URI metrics = awaitEndpoint(server).resolve("/metrics");
            TestFleets.awaitRunningRows(registry, 1);
            HttpClient client = HttpClient.newBuilder().connectTimeout(Patience.mcpTimeout()).build();
            HttpResponse<String> text = client.send(HttpRequest.newBuilder(metrics).timeout(Patience.mcpTimeout())
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, text.statusCode(), text.body());
            assertEquals("text/plain; version=0.0.4; charset=utf-8", text.headers().firstValue("Content-Type")
                    .orElseThrow());
            assertTrue(text.body().contains("fleet_member_instances{namespace=\"gitea-author\",profile=\"prgs-author\","
                    + "role=\"author\"} 1.0"), text.body());
            assertTrue(text.body().contains("fleet_registrations 1.0"), text.body());
            assertTrue(Promtool.checkMetrics(promtool, text.body().getBytes(StandardCharsets.UTF_8)).clean(),
                    text.body());

            HttpResponse<String> open = client.send(HttpRequest.newBuilder(metrics).timeout(Patience.mcpTimeout())
                    .header("Accept", "application/openmetrics-text; version=1.0.0").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
                    open.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(open.body().endsWith("# EOF\n"), open.body());
            assertTrue(Promtool.checkMetrics(promtool, open.body().getBytes(StandardCharsets.UTF_8)).clean(),
                    open.body());
        }
    }

    /**
     * Over HTTP stdin carries nothing, so its end ends nothing: a server started with {@code &} (or
     * under a supervisor) serves on once its stdin is closed, past the 2 s in which a stdio server
     * would have stopped, until a signal ends it. {@code serve --help} says so.
     */
    @Test
    void overHttpAClosedStdinIsIgnoredAndTheHelpSaysSo(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "http"),
                "--transport", "http", "--port", "0")) {
            URI metrics = awaitEndpoint(server).resolve("/metrics");
            TestFleets.awaitRunningRows(registry, 1);
            server.closeStdin();

            assertFalse(server.exitsWithin(Patience.scaled(Duration.ofSeconds(3)).toMillis()), server.diagnosis(10));
            HttpClient client = HttpClient.newBuilder().connectTimeout(Patience.mcpTimeout()).build();
            HttpResponse<String> scrape = client.send(HttpRequest.newBuilder(metrics).timeout(Patience.mcpTimeout())
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode(), scrape.body());
            assertEquals("running", new SqliteRegistryReader(registry).readAll().rows().get(0).status());

            server.process().destroy();
            assertTrue(server.exitsWithin(Patience.scaled(Duration.ofSeconds(2)).toMillis()), server.diagnosis(10));
            assertEquals(143, server.process().exitValue(), "ended by SIGTERM (128 + 15), never by stdin");
        }
        String help = FleetJar.run("serve", "--help").stdout().replaceAll("\\s+", " ");
        assertTrue(help.contains("http (streamable HTTP: stdin is ignored, and it serves until SIGTERM or SIGINT)"),
                help);
        assertTrue(help.contains("Over http stdin is ignored: only a stop signal ends it"), help);
    }

    /** {@code --host 0} binds every interface: one warning line, and a real address announced and recorded. */
    @Test
    void aWildcardHostIsWarnedAboutAndAnnouncedOnARealAddress(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "http"),
                "--transport", "http", "--port", "0", "--host", "0")) {
            URI endpoint = awaitEndpoint(server);
            assertEquals("127.0.0.1", endpoint.getHost(), server.stderrText());
            assertTrue(endpoint.getPort() > 0, endpoint.toString());
            List<String> warnings = server.stderrText().lines().filter(line -> line.contains("warning")).toList();
            assertEquals(1, warnings.size(), server.stderrText());
            assertTrue(warnings.get(0).startsWith("fleet: warning: --host 0 is not a loopback address"),
                    warnings.get(0));
            long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
            while (System.nanoTime() < deadline) {
                List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
                if (!rows.isEmpty()) {
                    assertEquals(endpoint.toString(), rows.get(0).endpoint());
                    return;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the server never registered:\n" + server.stderrText());
        }
    }
}
