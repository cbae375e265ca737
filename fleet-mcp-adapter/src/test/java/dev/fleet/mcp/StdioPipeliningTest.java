package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that writes its requests without waiting for answers (pipelining), on a host whose CPUs
 * are all busy: every request is answered, and the server serves on. Before the SDK's sends were
 * serialised, a few hundred such calls ended the session ("Failed to enqueue message"), and the
 * server marked its row stopped and exited although stdin was still open.
 */
class StdioPipeliningTest {

    private static final int CALLS = 1_000;
    private static final int FIRST_ID = 100;

    @TempDir
    Path temp;

    @Test
    void aThousandPipelinedToolCallsUnderCpuContentionAreAllAnsweredAndTheServerStillAnswersPing()
            throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            Set<Integer> answered = new HashSet<>();
            try (CpuContention busy = CpuContention.start()) {
                StringBuilder requests = new StringBuilder();
                for (int i = 0; i < CALLS; i++) {
                    String tool = i % 2 == 0 ? "gitea_get_runtime_context" : "gitea_assess_fleet_inventory";
                    requests.append("{\"jsonrpc\":\"2.0\",\"id\":").append(FIRST_ID + i)
                            .append(",\"method\":\"tools/call\",\"params\":{\"name\":\"").append(tool)
                            .append("\",\"arguments\":{}}}\n");
                }
                server.sendBytes(requests.toString().getBytes(StandardCharsets.UTF_8));
                for (int i = 0; i < CALLS; i++) {
                    JsonNode answer = server.next();
                    assertTrue(answer.has("result"), answer::toString);
                    assertFalse(answer.path("result").path("isError").asBoolean(), answer::toString);
                    answered.add(answer.path("id").asInt());
                }
            }
            assertEquals(CALLS, answered.size(), "one answer for each call");
            assertTrue(answered.stream().allMatch(id -> id >= FIRST_ID && id < FIRST_ID + CALLS));

            JsonNode pong = server.request(1, "ping", "{}");
            assertTrue(pong.has("result"), pong::toString);
            assertTrue(server.process().isAlive());
            assertTrue(server.calls().stream().noneMatch(line -> line.startsWith("markStopped")),
                    server.calls()::toString);
            assertFalse(server.stderrText().contains("Failed to enqueue"), "no send failed");

            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS));
            assertEquals(0, server.process().exitValue());
            assertEquals(1, server.calls().stream().filter(line -> line.startsWith("markStopped")).count());
        }
    }
}
