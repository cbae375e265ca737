package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.mcp.RequestParams;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The limits that keep one client from holding the endpoint: the header deadline, the connection cap,
 * session expiry, the session cap and the bound on initialize's params, each held and each released.
 */
class HttpLimitsTest extends HttpSurfaceFixture {

    @Test
    void aTricklingClientIsDroppedAtTheHeaderDeadline() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, limits(Duration.ofSeconds(1), 64, Duration.ofMinutes(5)));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout(500);
            byte[] trickle = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(200))
                    .getBytes(StandardCharsets.US_ASCII);
            assertTrue(closesWhileTrickled(socket, trickle, Duration.ofSeconds(60)),
                    "a connection whose headers never complete must be closed");
        }
    }

    /**
     * A body trickled a byte at a time after complete headers is cut at the deadline: the idle timeout
     * starts again with every byte, and 64 such clients held every connection the cap allows.
     */
    @Test
    void aTricklingBodyIsCutAtTheDeadline() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, limits(Duration.ofSeconds(1), 64, Duration.ofMinutes(5)));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout(500);
            socket.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nContent-Type: application/json"
                    + "\r\nAccept: " + ACCEPT + "\r\nContent-Length: 1000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // Its deadline is about a second (1 s, and 1000 bytes at 16 KiB/s). Whitespace, as JSON allows: a
            // body that could still become a request.
            assertTrue(closesWhileTrickled(socket, " ".repeat(1000).getBytes(StandardCharsets.US_ASCII),
                    Patience.scaled(Duration.ofSeconds(20))), "a connection whose body never completes must be closed");
        }
    }

    /**
     * A body that cannot be read whole (cut short by the client, stalled past the idle timeout, or malformed in
     * its chunks) is the client's doing, not the server's: its connection is closed without an answer, never
     * with a 500 "Internal error".
     */
    @Test
    void aBodyThatCannotBeReadWholeClosesTheConnectionWithoutAnAnswer() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, new HttpLimits(Duration.ofSeconds(30), 64,
                Duration.ofMinutes(5), HttpLimits.DEFAULT.maxBodyBytes(), Duration.ofSeconds(1),
                HttpLimits.DEFAULT.maxSessions()));
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nContent-Type: application/json"
                + "\r\nAccept: " + ACCEPT + "\r\n";
        assertEquals("", answer(head + "Content-Length: 1000\r\n\r\n{\"jsonrpc\"", true), "cut short");
        assertEquals("", answer(head + "Content-Length: 1000\r\n\r\n{\"jsonrpc\"", false), "stalled past the idle timeout");
        assertEquals("", answer(head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", false),
                "a malformed chunk");
    }

    /** What the server sends back to {@code request} until it closes the connection (after ours, with {@code fin}). */
    private String answer(String request, boolean fin) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout((int) Patience.scaled(Duration.ofSeconds(30)).toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            if (fin) {
                socket.shutdownOutput();
            }
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
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

    /**
     * A session's GET stream is held open past the connection idle timeout, and a client that went away
     * without a word (crashed, lost its network) is noticed only by a write: each stream is pinged every
     * half idle period, and released when the write fails or the ping goes unanswered, so dead streams
     * cannot hold the connection cap (a reviewer's 64 left the server unreachable for good).
     */
    @Test
    void anIdleStreamIsPingedWithinHalfTheIdlePeriod() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0, new HttpLimits(Duration.ofSeconds(10), 64,
                Duration.ofMinutes(5), HttpLimits.DEFAULT.maxBodyBytes(), Duration.ofSeconds(2), 256));
        String session = initialize();
        try (Socket stream = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            stream.getOutputStream().write(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port()
                    + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + session
                    + "\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            stream.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
            StringBuilder seen = new StringBuilder();
            InputStream in = stream.getInputStream();
            long give = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!seen.toString().contains("\"method\":\"ping\"") && System.nanoTime() < give) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                seen.append((char) b);
            }
            assertTrue(seen.toString().startsWith("HTTP/1.1 200"), seen::toString);
            assertTrue(seen.toString().contains("\"method\":\"ping\""), () -> "no keep-alive ping: " + seen);
        }
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

    /**
     * Writes {@code trickle} a byte at a time, each followed by up to the socket's read timeout (half a
     * second) of waiting for the server's close, so the idle timeout (60 s) never fires: whether the
     * server closed the connection within {@code give}.
     */
    private static boolean closesWhileTrickled(Socket socket, byte[] trickle, Duration give) throws IOException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        long until = System.nanoTime() + give.toNanos();
        for (int i = 0; i < trickle.length && System.nanoTime() < until; i++) {
            try {
                out.write(trickle[i]);
                out.flush();
                if (in.read() == -1) {
                    return true;
                }
            } catch (SocketTimeoutException stillOpen) {
                // nothing to read yet: keep trickling
            } catch (IOException reset) {
                return true;
            }
        }
        return false;
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
}
