package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract's exits, on a real subprocess: stdin EOF and SIGTERM each mark the row stopped and end
 * the process within 2 s; stdout carries JSON-RPC and nothing else.
 *
 * <p>Timed assertions in this module are the contract's own exit bound only: here {@code waitFor(2 s)}
 * after the trigger, measured from the moment stdin is closed or the signal sent (JVM start-up is
 * not part of it: the server has already answered requests by then); with a locked registry, see
 * {@link LockedRegistryShutdownTest}.
 */
class StdioShutdownTest {

    /** The contract's 2 s, as this host's load allows (exactly 2 s on a quiet one). */
    private static final long EXIT_BOUND_MILLIS = Patience.scaled(Duration.ofSeconds(2)).toMillis();

    @TempDir
    Path temp;

    @Test
    void stdinEofMarksTheRowStoppedAndExitsWithinTwoSecondsWithOnlyJsonRpcOnStdout() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            JsonNode initialized = server.initialize();
            assertEquals("fleet", initialized.path("result").path("serverInfo").path("name").asText());
            JsonNode assess = server.callTool(2, "gitea_assess_fleet_inventory");
            assertFalse(assess.path("result").path("isError").asBoolean());
            JsonNode context = server.callTool(3, "gitea_get_runtime_context");
            String runtimeId = context.path("result").path("structuredContent").path("runtime_id").asText();

            long closedAt = System.nanoTime();
            server.closeStdin();
            boolean exited = server.awaitExit(EXIT_BOUND_MILLIS, TimeUnit.MILLISECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt);

            assertTrue(exited, "the server must exit within 2 s of stdin EOF");
            System.err.println("stdio server exited " + millis + " ms after stdin EOF");
            assertEquals(0, server.process().exitValue());
            List<String> calls = server.calls();
            assertEquals("register " + runtimeId + " retention=PT168H", calls.get(0));
            assertEquals(1, calls.stream().filter(line -> line.startsWith("markStopped " + runtimeId + " ")).count(),
                    calls::toString);
            assertEquals("exit 0", calls.get(calls.size() - 1), "marked stopped before exiting");
            assertTrue(server.stdoutLines().size() >= 3, "every stdout line was checked as JSON-RPC");
            assertTrue(server.stderrText().contains(TestServerMain.NOISE),
                    "what a library prints to System.out goes to stderr");
        }
    }

    @Test
    void sigtermMarksTheRowStoppedAndExitsWithinTwoSeconds() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            String runtimeId = server.callTool(2, "gitea_get_runtime_context")
                    .path("result").path("structuredContent").path("runtime_id").asText();

            // SIGTERM through the handle: Process.destroy() would also close our end of stdout.
            assertTrue(server.process().toHandle().destroy());
            boolean exited = server.awaitExit(EXIT_BOUND_MILLIS, TimeUnit.MILLISECONDS);

            assertTrue(exited, "the server must exit within 2 s of SIGTERM");
            assertEquals(143, server.process().exitValue(), "128 + SIGTERM");
            assertEquals(1, server.calls().stream()
                    .filter(line -> line.startsWith("markStopped " + runtimeId + " ")).count(), server.calls()::toString);
        }
    }

    @Test
    void aFailedRegistrationIsServedThroughTheRuntimeContextAndTheServerKeepsServing() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp, "--fail-registration")) {
            server.initialize();
            JsonNode context = server.callTool(2, "gitea_get_runtime_context").path("result");
            JsonNode assess = server.callTool(3, "gitea_assess_fleet_inventory").path("result");

            assertFalse(context.path("isError").asBoolean());
            JsonNode registration = context.path("structuredContent").path("registration");
            assertEquals("failed", registration.path("status").asText());
            assertEquals("registry is read-only (test)", registration.path("error").asText());
            assertFalse(assess.path("isError").asBoolean(), "still serving");
            assertEquals("duplicate_member", assess.path("structuredContent").path("blocked_reason").asText());
            assertTrue(server.stderrText().contains("registration failed"), "logged to stderr");

            server.closeStdin();
            assertTrue(server.awaitExit(EXIT_BOUND_MILLIS, TimeUnit.MILLISECONDS));
            assertTrue(server.calls().stream().noneMatch(line -> line.startsWith("markStopped")),
                    "nothing to mark stopped without a row");
        }
    }
}
