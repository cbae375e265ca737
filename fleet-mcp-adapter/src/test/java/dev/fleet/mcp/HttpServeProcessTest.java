package dev.fleet.mcp;

import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.testing.Patience;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serveHttp} as the CLI runs it: a daemon process that SIGTERM stops, its row marked stopped on the way out. */
class HttpServeProcessTest {

    @TempDir
    Path temp;

    @Test
    void sigtermMarksTheHttpServersRowStoppedAndExitsWithinTwoSeconds() throws Exception {
        Path calls = temp.resolve("calls.txt");
        List<String> command = new ArrayList<>(List.of(Subprocess.java()));
        command.addAll(Subprocess.serverArguments(calls, "--http"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(temp.resolve("output.txt").toFile()).start();
        try {
            int port = awaitBoundPort(calls, process);
            HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                    .builder("http://127.0.0.1:" + port).endpoint(StreamableHttpEndpoint.ENDPOINT)
                    .jsonMapper(McpJson.mapper()).build();
            String runtimeId;
            try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Patience.mcpTimeout())
                    .initializationTimeout(Patience.mcpTimeout()).build()) {
                client.initialize();
                Map<?, ?> context = (Map<?, ?>) client.callTool(
                        CallToolRequest.builder("gitea_get_runtime_context").arguments(Map.of()).build())
                        .structuredContent();
                assertEquals("streamable_http", context.get("transport"));
                runtimeId = (String) context.get("runtime_id");
            }

            assertTrue(process.toHandle().destroy()); // SIGTERM
            assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(2)).toMillis(), TimeUnit.MILLISECONDS),
                    "the server must exit within 2 s of SIGTERM (" + Patience.describe() + ")");

            List<String> lines = Files.readAllLines(calls);
            assertEquals(1, lines.stream().filter(line -> line.startsWith("markStopped " + runtimeId + " ")).count(),
                    lines::toString);
        } finally {
            process.destroyForcibly();
        }
    }

    /** Start-up is not part of any bound: this waits generously for the process to report its port. */
    private static int awaitBoundPort(Path calls, Process process) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (Files.exists(calls)) {
                Optional<String> bound = Files.readAllLines(calls).stream()
                        .filter(line -> line.startsWith("bound ")).findFirst();
                if (bound.isPresent()) {
                    return Integer.parseInt(bound.get().substring("bound ".length()));
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the HTTP server never reported its port");
    }
}
