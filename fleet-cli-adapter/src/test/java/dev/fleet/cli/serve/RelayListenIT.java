package dev.fleet.cli.serve;

import static dev.fleet.cli.serve.NodeStepClient.awaitRegistered;
import static dev.fleet.cli.serve.NodeStepClient.printed;
import static dev.fleet.cli.serve.NodeStepClient.stderr;
import static dev.fleet.cli.serve.NodeStepClient.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.JsonRpcProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code fleet://verdict} on a listen through the relay (the contract, §13, "fleet://verdict on a
 * listen"), with real parts only: the TypeScript SDK 2.4.0 client ({@code src/test/node/
 * relay-listen-client.mjs}), pinned to 2026-07-28 or in {@code auto} mode, over its own stdio transport
 * (a disposable era probe first), starts a member (the real jar) wrapping a modern server on the
 * TypeScript SDK 2.4.0 ({@code modern-server.mjs --subscribable}: a resource of its own and
 * {@code resources.subscribe}). One listen asks for {@code fleet://verdict} and the child's
 * {@code note://modern-child}: the child's acknowledgement honours both and reaches the client unchanged;
 * the child's own announcement of its note passes with the listen's subscription id; and when another
 * member of the registry is killed with SIGKILL, the client is told of {@code fleet://verdict} on the same
 * listen within §8's bound (interval + 1 s, scaled for this host), and of nothing before. Only stdio:
 * a wrapping member does not serve HTTP ({@code --transport http} with {@code --} is a usage error).
 */
class RelayListenIT {

    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "relay-listen");
    /** interval (1 s) + 1 s: how late a change may be announced, on a quiet host (§8). */
    private static final Duration ANNOUNCED_WITHIN = Duration.ofSeconds(2);
    /**
     * A change in the first second after the acknowledgement may go unannounced (the relay's watcher
     * takes its baseline then, §13): the kill waits twice that, scaled.
     */
    private static final Duration BASELINE_TAKEN = Duration.ofSeconds(2);
    private static final String VERDICT = "fleet://verdict";
    private static final String NOTE = "note://modern-child";

    @TempDir
    Path dir;

    @BeforeAll
    static void installTheClientAndServer() throws Exception {
        NodeMcpChild.install();
    }

    @ParameterizedTest(name = "a {0} client")
    @ValueSource(strings = {"pin", "auto"})
    void aListenThroughTheRelayIsToldOfAKilledMemberBesideTheChildsOwnResource(String mode) throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess victim = ServeProcess.start(registry, "prgs-merger", COHORT)) {
            awaitRegistered(victim);
            List<String> member = WrappedMembers.wrapping(registry, "prgs-author",
                    List.of("node", NodeMcpChild.MODERN_SERVER.toString(), "--subscribable"));
            Map<String, Object> config = Map.of("mode", mode, "command", member,
                    "env", NodeStepClient.memberEnvironment(COHORT));
            try (JsonRpcProcess client = NodeStepClient.start(NodeMcpChild.INSTALLED.resolve(
                    "relay-listen-client.mjs"), config, dir)) {
                assertEquals("2026-07-28", step(client, "connected").path("era").asText(), "the modern era");
                awaitTheProbeGone(registry); // its going is itself a change of the verdict
                client.send("listen");
                assertEquals("{\"resourceSubscriptions\":[\"" + VERDICT + "\",\"" + NOTE + "\"]}",
                        step(client, "listening").get("honored").toString(), "the child's acknowledgement");

                JsonNode childsOwn = untilTouched(client);
                assertEquals(NOTE, childsOwn.path("uri").asText(), childsOwn.toString());
                String subscriptionId = childsOwn.path("subscriptionId").asText();
                assertFalse(subscriptionId.isEmpty(), "tagged with the listen's subscription id: " + childsOwn);

                Thread.sleep(Patience.scaled(BASELINE_TAKEN).toMillis());
                assertEquals(List.of(), verdictUpdates(client), "nothing changed yet, so nothing is announced");
                long limit = Patience.scaled(ANNOUNCED_WITHIN).toNanos();
                long killedAt = System.nanoTime();
                victim.process().destroyForcibly(); // SIGKILL: the row stays running, the process is gone
                JsonNode told = step(client, "updated");
                long tookNanos = System.nanoTime() - killedAt;
                assertEquals(VERDICT, told.path("uri").asText(), () -> told + stderr(client));
                assertEquals(subscriptionId, told.path("subscriptionId").asText(), "on the same listen: " + told);
                assertTrue(tookNanos <= limit, "told " + tookNanos / 1_000_000 + " ms after the kill, more than "
                        + limit / 1_000_000 + " ms (" + Patience.describe() + ")");

                client.send("close");
                step(client, "closed");
                assertTrue(client.awaitExit(Patience.mcpTimeout().toSeconds(), TimeUnit.SECONDS), stderr(client));
                assertEquals(0, client.process().exitValue(), stderr(client));
            }
        }
    }

    /**
     * The client's era probe has come and gone: of the three members' rows, two (the victim's and the
     * session's) name a process that runs. The probe's row is stopped, or stale where it was killed
     * before it could mark it (§12.1): either way no longer a second member.
     */
    private static void awaitTheProbeGone(Path registry) throws InterruptedException {
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
            return rows.size() == 3 && rows.stream().filter(row -> WrappedMembers.runs(row.pid())).count() == 2;
        }, "the probe's member gone beside the victim and the session's member");
    }

    /**
     * The steps up to the answer of the child's {@code touch_note}: the child's own announcement of its
     * note, which it sends before that answer (and which passes in order), must be among them.
     */
    private static JsonNode untilTouched(JsonRpcProcess client) throws Exception {
        JsonNode note = null;
        for (int steps = 0; steps < 3; steps++) {
            JsonNode line = client.next();
            assertTrue(line != null, () -> "the client ended before 'touched'" + stderr(client));
            JsonNode params = line.path("params");
            if ("touched".equals(params.path("step").asText())) {
                assertEquals("touched 1 times", params.path("text").asText(), "answered by the child");
                assertTrue(note != null, "the child's announcement came before its answer: " + client.stdoutLines());
                return note;
            }
            assertEquals("updated", params.path("step").asText(), () -> line + stderr(client));
            assertEquals(NOTE, params.path("uri").asText(), "only the child's note has changed: " + line);
            note = params;
        }
        throw new AssertionError("no answer to touch_note: " + client.stdoutLines() + stderr(client));
    }

    private static List<JsonNode> verdictUpdates(JsonRpcProcess client) {
        return printed(client, "updated").stream().filter(update -> VERDICT.equals(update.path("uri").asText()))
                .toList();
    }

    @AfterEach
    void killWhatIsLeft() {
        WrappedMembers.killWhatIsLeft(dir.resolve("registry.sqlite3"));
    }
}
