package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.fleet.cli.serve.NodeStepClient.awaitRegistered;
import static dev.fleet.cli.serve.NodeStepClient.stderr;
import static dev.fleet.cli.serve.NodeStepClient.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.testing.JsonRpcProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A plain {@code fleet serve} (the real jar) and the TypeScript SDK 2.4.0 client
 * ({@code src/test/node-modern-client}), pinned to 2026-07-28 or in {@code auto} mode, over stdio (the
 * client spawns the member, after its disposable era probe) and streamable HTTP: the modern era is
 * negotiated, both tools listed, an argument refused, the verdict's digest the same as a 2025 client's
 * of the same fleet and as {@code fleet://verdict}'s, and a listen to the verdict is told when another
 * member is killed (§8's bound, §13).
 */
class ModernEraClientsIT {

    private static final Path SOURCE = Path.of("src/test/node-modern-client").toAbsolutePath();
    private static final Path INSTALLED = Path.of("target/node-modern-client").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "modern-era");
    /** interval (1 s) + 1 s: how late a change may be announced, on a quiet host (§8). */
    private static final Duration ANNOUNCED_WITHIN = Duration.ofSeconds(2);

    @BeforeAll
    static void install() throws Exception {
        NodeMcpChild.install(SOURCE, INSTALLED, "client.mjs");
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"stdio, pin", "stdio, auto", "http, pin", "http, auto"})
    void theModernClientIsServedTheSameVerdictAndToldOfAChange(String transport, String mode, @TempDir Path dir)
            throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess victim = ServeProcess.start(registry, "prgs-merger", COHORT);
                ServeProcess http = "http".equals(transport) ? ServeProcess.start(registry, "prgs-author", COHORT,
                        "--transport", "http", "--port", "0") : null) {
            awaitRegistered(victim);
            Map<String, Object> config = new HashMap<>(Map.of("transport", transport, "mode", mode,
                    "waitForUpdateMs", Patience.scaled(Duration.ofSeconds(30)).toMillis()));
            if (http != null) {
                config.put("url", HttpServeIT.awaitEndpoint(http).toString());
            } else {
                config.put("command", ServeProcess.serveCommand(registry, "prgs-controller"));
                config.put("env", NodeStepClient.memberEnvironment(COHORT));
            }
            try (JsonRpcProcess client = NodeStepClient.start(INSTALLED.resolve("client.mjs"), config, dir)) {
                assertEquals("2026-07-28", step(client, "connected").path("era").asText());
                assertEquals(List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                        JSON.convertValue(step(client, "tools").get("names"), List.class));
                JsonNode refused = step(client, "refused");
                assertTrue(refused.path("isError").asBoolean(), refused.toString());
                assertTrue(refused.path("text").asText().contains("accepts no evidence"), refused.toString());
                assertEquals("2025-11-25", step(client, "legacy").path("era").asText());
                JsonNode assessed = step(client, "assessed");
                assertEquals(assessed.path("legacy").asText(), assessed.path("modern").asText(), "the eras agree");
                assertEquals(assessed.path("modern").asText(), assessed.path("read").asText(), "fleet://verdict");
                assertEquals("{\"resourceSubscriptions\":[\"fleet://verdict\"]}",
                        step(client, "listening").get("honored").toString());

                // The listen's baseline was taken before its acknowledgement: a change from now on is announced.
                long limit = Patience.scaled(ANNOUNCED_WITHIN).toNanos();
                long killedAt = System.nanoTime();
                victim.process().destroyForcibly(); // SIGKILL: the row stays running, the process is gone
                JsonNode told = client.next().path("params");
                long tookNanos = System.nanoTime() - killedAt;
                assertEquals("updated", told.path("step").asText(), () -> "no update: " + told + stderr(client));
                assertEquals("fleet://verdict", told.path("uri").asText());
                assertTrue(tookNanos <= limit, "told " + tookNanos / 1_000_000 + " ms after the kill, more than "
                        + limit / 1_000_000 + " ms (" + Patience.describe() + ")");
                step(client, "closed");
                assertTrue(client.awaitExit(Patience.mcpTimeout().toSeconds(), TimeUnit.SECONDS), stderr(client));
                assertEquals(0, client.process().exitValue(), stderr(client));
            }
        }
    }
}
