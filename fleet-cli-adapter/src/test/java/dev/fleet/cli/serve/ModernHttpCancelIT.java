package dev.fleet.cli.serve;

import static dev.fleet.cli.serve.NodeStepClient.awaitRegistered;
import static dev.fleet.cli.serve.NodeStepClient.stderr;
import static dev.fleet.cli.serve.NodeStepClient.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.testing.JsonRpcProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listen cancelled over streamable HTTP in the 2026-07-28 era, against a plain member (the real jar,
 * {@code --transport http}) and the TypeScript SDK 2.4.0 client pinned to 2026-07-28
 * ({@code src/test/node-modern-client/cancel-client.mjs}): the client's {@code close()} of a listen
 * sends {@code notifications/cancelled}, which gets 202 (the SDK itself drops that answer, so the client
 * script's fetch keeps every POST's status), and the member keeps serving: a tool call is answered, and a
 * second listen is acknowledged, told when another member is killed, and cancelled with 202 in turn.
 */
class ModernHttpCancelIT {

    private static final Path SOURCE = Path.of("src/test/node-modern-client").toAbsolutePath();
    private static final Path INSTALLED = Path.of("target/node-modern-client").toAbsolutePath();
    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "modern-cancel");
    private static final String HONOURED = "{\"resourceSubscriptions\":[\"fleet://verdict\"]}";

    @BeforeAll
    static void install() throws Exception {
        NodeMcpChild.install(SOURCE, INSTALLED, "client.mjs", "cancel-client.mjs");
    }

    @Test
    void aCancelledListenGets202AndTheMemberKeepsServing(@TempDir Path dir) throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess victim = ServeProcess.start(registry, "prgs-merger", COHORT);
                ServeProcess http = ServeProcess.start(registry, "prgs-author", COHORT, "--transport", "http",
                        "--port", "0")) {
            awaitRegistered(victim);
            Map<String, Object> config = Map.of("url", HttpServeIT.awaitEndpoint(http).toString(),
                    "waitForUpdateMs", Patience.scaled(Duration.ofSeconds(30)).toMillis());
            try (JsonRpcProcess client = NodeStepClient.start(INSTALLED.resolve("cancel-client.mjs"), config, dir)) {
                assertEquals("2026-07-28", step(client, "connected").path("era").asText());
                assertEquals(HONOURED, step(client, "listening").get("honored").toString());
                JsonNode first = step(client, "cancelled");
                assertEquals("[200]", first.get("listens").toString(), "the listen's own stream: " + first);
                assertEquals("[202]", first.get("cancelled").toString(), "the cancellation is accepted: " + first);

                JsonNode assessed = step(client, "assessed");
                assertFalse(assessed.path("isError").asBoolean(), assessed.toString());
                assertTrue(assessed.path("digest").asText().matches("sha256:[0-9a-f]{64}"), assessed.toString());

                assertEquals(HONOURED, step(client, "listening").get("honored").toString(), "a second listen");
                victim.process().destroyForcibly(); // SIGKILL: the row stays running, the process is gone
                JsonNode told = client.next().path("params");
                assertEquals("updated", told.path("step").asText(), () -> "no update: " + told + stderr(client));
                assertEquals("fleet://verdict", told.path("uri").asText());
                JsonNode second = step(client, "cancelled");
                assertEquals("[200,200]", second.get("listens").toString(), second.toString());
                assertEquals("[202,202]", second.get("cancelled").toString(), second.toString());

                step(client, "closed");
                assertTrue(client.awaitExit(Patience.mcpTimeout().toSeconds(), TimeUnit.SECONDS), stderr(client));
                assertEquals(0, client.process().exitValue(), stderr(client));
                assertTrue(http.process().isAlive(), "the member serves on: " + http.diagnosis(20));
            }
        }
    }
}
