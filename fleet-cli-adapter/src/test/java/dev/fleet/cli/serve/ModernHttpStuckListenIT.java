package dev.fleet.cli.serve;

import static dev.fleet.cli.serve.NodeStepClient.awaitRegistered;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listens whose client never reads hold no other client up (the real jar, {@code --transport http}): forty
 * 2026-07-28 listens, each under a 900 KB id that every frame echoes and on a socket whose client reads nothing,
 * fill their sockets' buffers at the first change; the SDK writes those frames on Reactor's shared pool and
 * blocks until Jetty's 60 s idle timeout. An honest listen opened then is acknowledged at once (it waited a
 * minute, behind them, at Reactor's default pool size) and told of the next change.
 */
class ModernHttpStuckListenIT {

    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "modern-stuck");
    private static final int STUCK = 40;
    private static final int ID_CHARS = 900_000;

    @Test
    void listensThatNeverReadHoldNoOtherListenUp(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        List<Socket> stuck = new ArrayList<>();
        // Two processors, as this host has: Reactor's default pool (ten threads a processor) would leave a larger
        // host threads to spare beyond the stuck listens, and the test would pass without the pool sized in main.
        try (ServeProcess http = ServeProcess.startWith(List.of("-XX:ActiveProcessorCount=2"), registry,
                TestFleets.roster(registry), "prgs-author", COHORT, "--transport", "http", "--port", "0")) {
            URI endpoint = HttpServeIT.awaitEndpoint(http);
            for (int i = 0; i < STUCK; i++) {
                Socket socket = new Socket();
                socket.setReceiveBufferSize(1024); // before connecting: the window stays small
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), endpoint.getPort()));
                socket.getOutputStream().write(listen(endpoint, i + "x".repeat(ID_CHARS)));
                stuck.add(socket);
            }
            try (ServeProcess change = ServeProcess.start(registry, "prgs-merger", COHORT)) {
                awaitRegistered(change); // a change: each stuck listen's next frame (900 KB) blocks its writer
                Thread.sleep(Patience.scaled(Duration.ofSeconds(3)).toMillis());
                try (Socket honest = new Socket(InetAddress.getLoopbackAddress(), endpoint.getPort())) {
                    honest.getOutputStream().write(listen(endpoint, "honest"));
                    Duration bound = Patience.scaled(Duration.ofSeconds(15));
                    assertTrue(readUntil(honest, "notifications/subscriptions/acknowledged", bound),
                            "the honest listen is acknowledged within " + bound);
                    change.close(); // the member goes: a change the honest listen is told of
                    assertTrue(readUntil(honest, "notifications/resources/updated", bound),
                            "the honest listen is told of a change within " + bound);
                }
            }
        } finally {
            for (Socket socket : stuck) {
                socket.close();
            }
        }
    }

    private static byte[] listen(URI endpoint, String id) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"subscriptions/listen\",\"params\":{"
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}},"
                + "\"notifications\":{\"resourceSubscriptions\":[\"fleet://verdict\"]}}}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.getPort() + "\r\nContent-Type: application/json"
                + "\r\nAccept: application/json, text/event-stream\r\nMcp-Method: subscriptions/listen"
                + "\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: " + bytes.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + bytes.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(bytes, 0, request, head.length(), bytes.length);
        return request;
    }

    /** Whether {@code text} arrives on {@code socket} within {@code bound}. */
    private static boolean readUntil(Socket socket, String text, Duration bound) throws IOException {
        long deadline = System.nanoTime() + bound.toNanos();
        StringBuilder seen = new StringBuilder();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        socket.setSoTimeout(250);
        while (System.nanoTime() < deadline) {
            try {
                int n = in.read(buffer);
                if (n < 0) {
                    return false;
                }
                seen.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                if (seen.indexOf(text) >= 0) {
                    return true;
                }
            } catch (SocketTimeoutException quiet) {
                // keep-alives come each second; go on until the bound
            }
        }
        return false;
    }
}
