package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.modern.ModernFleetServer;
import dev.fleet.testing.Patience;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An exit waits for each listen's final result to be written, not just for the listen to have ended: the
 * listen's place is freed before that result is written (so a client that reads it may reuse the id), and
 * a review saw the wait return while a slow stdout still held the result back.
 */
class ModernStdioEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theWaitAtTheEndReturnsOnceTheListensFinalResultIsWritten() throws Exception {
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        OutputStream slowForResults = new OutputStream() {
            @Override
            public synchronized void write(int b) {
                written.write(b);
            }

            @Override
            public synchronized void write(byte[] bytes, int offset, int length) {
                if (new String(bytes, offset, length, StandardCharsets.UTF_8).contains("\"result\"")) {
                    sleep(300); // a client slow to read: the final result takes a while to be written
                }
                written.write(bytes, offset, length);
            }
        };
        ModernFleetServer modern = ModernFleetServer.of(Fixtures.stdioMember());
        ModernStdio stdio = new ModernStdio(modern, new LineOutput(slowForResults, "the client"));
        stdio.request(JsonRpcId.of(JSON.readTree("\"L\"")), ModernStdio.LISTEN, JSON.readTree("{\"notifications\":{},"
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"slow\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}"));

        modern.close(); // the server's end: each open listen gets its final result
        stdio.awaitListensAnswered(System.nanoTime() + Patience.scaled(Duration.ofSeconds(10)).toNanos());

        String text;
        synchronized (slowForResults) {
            text = written.toString(StandardCharsets.UTF_8);
        }
        assertTrue(text.contains("\"id\":\"L\""), "the listen's final result is written when the wait returns: " + text);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
