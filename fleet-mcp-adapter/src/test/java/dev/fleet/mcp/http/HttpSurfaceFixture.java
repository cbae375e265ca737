package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.FleetMcpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;

/**
 * The streamable HTTP endpoint as any HTTP client meets it, over real sockets only: the tests of its
 * surface start an endpoint, speak to it through {@link HttpClient} or a raw socket, and check that an
 * error answers JSON-RPC and HTTP only (no stack trace, no class or server name, no version).
 */
abstract class HttpSurfaceFixture {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
    static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    static final String ACCEPT = "application/json, text/event-stream";
    /** The {@code _meta} of a 2026-07-28 request: its era and the client's capabilities, named in every request. */
    static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    final InMemoryRegistry registry = new InMemoryRegistry();
    private final FleetMcpServer fleet = Fixtures.httpServer(registry);
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    RunningHttpServer running;

    @AfterEach
    void stop() {
        if (running != null) {
            running.close();
        }
    }

    RunningHttpServer start(String host, int port) {
        return StreamableHttpEndpoint.start(fleet, host, port);
    }

    RunningHttpServer start(String host, int port, HttpLimits limits) {
        return StreamableHttpEndpoint.start(fleet, null, host, port, limits, false);
    }

    String initialize() throws Exception {
        HttpResponse<String> initialized = send(post(INITIALIZE));
        assertEquals(200, initialized.statusCode(), initialized.body());
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").header("Mcp-Session-Id", session));
        return session;
    }

    HttpRequest.Builder request() {
        return HttpRequest.newBuilder(running.endpoint()).timeout(Duration.ofSeconds(60));
    }

    HttpRequest.Builder post(String body) {
        return request().header("Content-Type", "application/json").header("Accept", ACCEPT)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status, a JSON-RPC error object with the code and a one-line message, and nothing that leaks. */
    static void expectError(HttpResponse<String> response, int status, int code) throws IOException {
        String everything = response.headers().map() + "\n" + response.body();
        assertEquals(status, response.statusCode(), everything);
        JsonNode body = JSON.readTree(response.body());
        assertEquals("2.0", body.path("jsonrpc").asText(), everything);
        assertEquals(code, body.path("error").path("code").asInt(), everything);
        String message = body.path("error").path("message").asText();
        assertFalse(message.isBlank() || message.contains("\n"), everything);
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                everything);
        assertTrue(response.headers().firstValue("Server").isEmpty(), everything);
        assertClean(everything);
    }

    static void assertClean(String answer) {
        String lower = answer.toLowerCase(Locale.ROOT);
        assertFalse(lower.contains("exception"), answer);
        assertFalse(lower.contains("java."), answer);
        assertFalse(lower.contains("jetty"), answer);
        assertFalse(lower.contains("server:"), answer);
        assertFalse(lower.contains("x-powered-by"), answer);
        assertFalse(lower.contains("stacktrace") || lower.contains("\tat "), answer);
        assertFalse(VERSION.matcher(answer).find(), answer);
    }

    /** One request over a raw socket; the whole answer as text (the server closes, or 30 s pass). */
    String raw(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = socket.getInputStream().read(buffer)) != -1; ) {
                    answer.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException | java.net.SocketException e) {
                // whatever arrived is the answer
            }
            String text = answer.toString(StandardCharsets.ISO_8859_1);
            assertNotNull(text);
            return text;
        }
    }
}
