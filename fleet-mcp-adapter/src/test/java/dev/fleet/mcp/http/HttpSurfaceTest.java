package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.FleetMcpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The streamable HTTP endpoint as any HTTP client meets it: every error path answers JSON-RPC and
 * HTTP only (no stack trace, no class or server name, no version), Origin and Host are compared
 * exactly, and the limits hold (header deadline, connection cap, session expiry, session cap, initialize
 * size). Real sockets only.
 */
class HttpSurfaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final FleetMcpServer fleet = Fixtures.httpServer(registry);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private RunningHttpServer running;

    @AfterEach
    void stop() {
        if (running != null) {
            running.close();
        }
    }

    @Test
    void everyErrorPathAnswersAJsonRpcErrorAndNothingElse() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();

        expectError(send(post(PING).header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(post(PING)), 400, -32600); // a non-initialize request without a session id
        expectError(send(post("{\"jsonrpc\":").header("Mcp-Session-Id", session)), 400, -32700);
        expectError(send(post("[1,2]").header("Mcp-Session-Id", session)), 400, -32600);
        expectError(send(request().header("Content-Type", "text/plain").header("Accept", ACCEPT)
                .POST(HttpRequest.BodyPublishers.ofString(PING))), 415, -32600);
        expectError(send(request().header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(PING))), 406, -32600);
        assertTooLargeBeforeItsBody(session);
        expectError(send(request().method("PUT", HttpRequest.BodyPublishers.ofString(PING))), 405, -32600);
        expectError(send(request().method("OPTIONS", HttpRequest.BodyPublishers.noBody())), 405, -32600);
        expectError(send(request().GET().header("Accept", "text/event-stream")), 400, -32600);
        expectError(send(request().GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(request().DELETE().header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(HttpRequest.newBuilder(running.endpoint().resolve("/other")).GET()), 404, -32600);
        // Params the SDK cannot read: it would leave the call unanswered (tools/call) or answer 500 (initialize).
        HttpResponse<String> noParams = send(post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}")
                .header("Mcp-Session-Id", session));
        expectError(noParams, 400, -32602);
        assertEquals(7, JSON.readTree(noParams.body()).path("id").asInt(), noParams.body());
        expectError(send(post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":3}}")
                .header("Mcp-Session-Id", session)), 400, -32602);
        expectError(send(post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":null}")), 400,
                -32602);

        // The session still works: errors never end it.
        HttpResponse<String> ping = send(post(PING).header("Mcp-Session-Id", session));
        assertEquals(200, ping.statusCode(), ping.body());
        assertClean(ping.headers().map().toString() + ping.body());
    }

    @Test
    void traceIsRefusedWithoutEchoEvenWithAForeignHostAndOrigin() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String answer = raw("TRACE /mcp HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\n"
                + "X-Secret: echo-me\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 403") || answer.startsWith("HTTP/1.1 405"), answer);
        assertFalse(answer.contains("echo-me"), answer);
        String local = raw("TRACE /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nX-Secret: echo-me\r\n"
                + "Connection: close\r\n\r\n");
        assertTrue(local.startsWith("HTTP/1.1 405"), local);
        assertFalse(local.contains("echo-me"), local);
        assertClean(answer + local);
    }

    @Test
    void aMalformedRequestLineGetsAJsonRpcErrorThatNamesNoServer() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String answer = raw("GARBAGE\u0001 / NOT-HTTP\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertClean(answer);
    }

    @Test
    void originsAreParsedAndComparedExactly() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        int port = running.port();
        for (String foreign : List.of("http://evil.example", "http://127.0.0.1:80@evil.example",
                "http://127.0.0.1:" + port + "@evil.example", "http://localhost:5/evil", "http://localhost:5",
                "http://localhost:" + port + "/evil", "https://127.0.0.1:" + port, "null", "http://[::1]:1")) {
            expectError(send(post(INITIALIZE).header("Origin", foreign)), 403, -32600);
        }
        for (String own : List.of("http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port)) {
            HttpResponse<String> accepted = send(post(INITIALIZE).header("Origin", own));
            assertEquals(200, accepted.statusCode(), own + ": " + accepted.body());
        }
        String rebound = raw("POST /mcp HTTP/1.1\r\nHost: rebound.evil.example:" + port + "\r\n"
                + "Content-Type: application/json\r\nAccept: " + ACCEPT + "\r\nContent-Length: " + INITIALIZE.length()
                + "\r\nConnection: close\r\n\r\n" + INITIALIZE);
        assertTrue(rebound.startsWith("HTTP/1.1 403"), rebound);
    }

    @Test
    void aTricklingClientIsDroppedAtTheHeaderDeadline() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, limits(Duration.ofSeconds(1), 64, Duration.ofMinutes(5)));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] trickle = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(200))
                    .getBytes(StandardCharsets.US_ASCII);
            // The connection idle timeout (60 s) never fires: a byte arrives twice a second.
            long give = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            boolean closed = false;
            for (int i = 0; i < trickle.length && System.nanoTime() < give && !closed; i++) {
                try {
                    out.write(trickle[i]);
                    out.flush();
                    closed = in.read() == -1;
                } catch (SocketTimeoutException stillOpen) {
                    // nothing to read yet: keep trickling
                } catch (IOException reset) {
                    closed = true;
                }
            }
            assertTrue(closed, "a connection whose headers never complete must be closed");
        }
    }

    @Test
    void connectionsBeyondTheCapWaitUntilOneCloses() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, limits(Duration.ofMinutes(5), 2, Duration.ofMinutes(5)));
        Socket first = new Socket(InetAddress.getLoopbackAddress(), running.port());
        Socket second = new Socket(InetAddress.getLoopbackAddress(), running.port());
        try {
            // Both idle connections hold the two places: a third request is not served meanwhile.
            HttpRequest capped = post(INITIALIZE).timeout(Duration.ofSeconds(2)).build();
            assertTrue(failsOrTimesOut(capped), "a request beyond the connection cap must wait");
        } finally {
            first.close();
            second.close();
        }
        HttpResponse<String> served = http.send(post(INITIALIZE).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void anIdleSessionIsClosedAndThenUnknown() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0,
                limits(Duration.ofSeconds(10), 64, Duration.ofMillis(300)));
        String session = initialize();
        // Idle for many sweep periods (one to two periods are enough); nothing touches the session meanwhile.
        Thread.sleep(Duration.ofSeconds(5).toMillis());
        expectError(send(post(PING).header("Mcp-Session-Id", session)), 404, -32001);
    }

    @Test
    void initializeBeyondTheSessionCapIsRefusedUntilASessionIsDeleted() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, new HttpLimits(Duration.ofSeconds(10), 64,
                Duration.ofHours(1), HttpLimits.DEFAULT.maxBodyBytes(), HttpLimits.DEFAULT.connectionIdle(), 3));
        String first = initialize();
        String second = initialize();
        initialize();
        HttpResponse<String> refused = send(post(INITIALIZE));
        expectError(refused, 503, -32000);
        assertEquals(1, JSON.readTree(refused.body()).path("id").asInt(), refused.body());
        assertEquals("Too many sessions: close one (DELETE) or wait for idle ones to expire",
                JSON.readTree(refused.body()).path("error").path("message").asText());
        // The sessions held are untouched by the refusal.
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", second)).statusCode());

        HttpResponse<String> deleted = send(request().DELETE().header("Mcp-Session-Id", first));
        assertEquals(200, deleted.statusCode(), deleted.body());
        expectError(send(post(PING).header("Mcp-Session-Id", first)), 404, -32001);
        initialize(); // the place it freed
        expectError(send(post(INITIALIZE)), 503, -32000);
    }

    @Test
    void anInitializeWhoseParamsExceedTheBoundIsRefusedWithInvalidParams() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String bound = String.valueOf(RequestParams.MAX_INITIALIZE_PARAMS_BYTES);
        HttpResponse<String> refused = send(post(initializeWithCapabilities(
                "{\"experimental\":{\"pad\":{\"x\":\"" + "x".repeat(RequestParams.MAX_INITIALIZE_PARAMS_BYTES) + "\"}}}")));
        expectError(refused, 400, -32602);
        assertTrue(JSON.readTree(refused.body()).path("error").path("message").asText().contains(bound),
                refused.body());
        // Within the bound, the same shape opens a session.
        HttpResponse<String> served = send(post(initializeWithCapabilities(
                "{\"experimental\":{\"pad\":{\"x\":\"" + "x".repeat(8 * 1024) + "\"}}}")));
        assertEquals(200, served.statusCode(), served.body());
    }

    private static String initializeWithCapabilities(String capabilities) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":" + capabilities + ",\"clientInfo\":{\"name\":\"raw\","
                + "\"version\":\"1\"}}}";
    }

    @Test
    void aWildcardBindIsAnnouncedOnARealAddressAndFlaggedAsExposed() throws Exception {
        assertEquals("127.0.0.1", StreamableHttpEndpoint.announcedHost(InetAddress.getByName("0")));
        assertEquals("127.0.0.1", StreamableHttpEndpoint.announcedHost(InetAddress.getByName("0.0.0.0")));
        assertEquals("[0:0:0:0:0:0:0:1]", StreamableHttpEndpoint.uriHost("0:0:0:0:0:0:0:1"));
        running = start("0", 0);
        assertEquals("http://127.0.0.1:" + running.port() + "/mcp", running.endpoint().toString());
        assertTrue(running.exposedBeyondLoopback());
        assertEquals(running.endpoint().toString(), registry.rows().get(0).endpoint());
        try (RunningHttpServer loopback = start(StreamableHttpEndpoint.DEFAULT_HOST, 0)) {
            assertFalse(loopback.exposedBeyondLoopback());
        }
    }

    private static HttpLimits limits(Duration headerDeadline, int connections, Duration sessionIdle) {
        return new HttpLimits(headerDeadline, connections, sessionIdle, HttpLimits.DEFAULT.maxBodyBytes(),
                HttpLimits.DEFAULT.connectionIdle(), HttpLimits.DEFAULT.maxSessions());
    }

    private boolean failsOrTimesOut(HttpRequest request) {
        try {
            http.send(request, HttpResponse.BodyHandlers.ofString());
            return false;
        } catch (IOException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String initialize() throws Exception {
        HttpResponse<String> initialized = send(post(INITIALIZE));
        assertEquals(200, initialized.statusCode(), initialized.body());
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").header("Mcp-Session-Id", session));
        return session;
    }

    private static final String ACCEPT = "application/json, text/event-stream";

    private HttpRequest.Builder request() {
        return HttpRequest.newBuilder(running.endpoint()).timeout(Duration.ofSeconds(60));
    }

    private HttpRequest.Builder post(String body) {
        return request().header("Content-Type", "application/json").header("Accept", ACCEPT)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status, a JSON-RPC error object with the code and a one-line message, and nothing that leaks. */
    private static void expectError(HttpResponse<String> response, int status, int code) throws IOException {
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

    private static void assertClean(String answer) {
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
    /**
     * A body declared larger than the limit is refused (413, a JSON-RPC error) before a byte of it is
     * read. Sent as headers alone: a client still writing two megabytes when the server answers and
     * closes can fail its write before it reads the answer, and a busy host made that race real.
     */
    private void assertTooLargeBeforeItsBody(String session) throws IOException {
        String answer = raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nContent-Type: "
                + "application/json\r\nAccept: " + ACCEPT + "\r\nMcp-Session-Id: " + session + "\r\nContent-Length: "
                + (2 << 20) + "\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
        String body = answer.substring(answer.indexOf("{"), answer.lastIndexOf("}") + 1);
        assertEquals(-32600, JSON.readTree(body).path("error").path("code").asInt(), answer);
        assertClean(answer);
    }

    private String raw(String request) throws IOException {
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

    private RunningHttpServer start(String host, int port) {
        return StreamableHttpEndpoint.start(fleet, host, port);
    }

    private RunningHttpServer start(String host, int port, HttpLimits limits) {
        return StreamableHttpEndpoint.start(fleet, null, host, port, limits, false);
    }
}
