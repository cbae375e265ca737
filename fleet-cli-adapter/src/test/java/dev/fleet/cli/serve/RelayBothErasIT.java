package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The relay in both MCP eras (the contract, §13) with real clients and servers: the TypeScript SDK
 * 2.4.0 client ({@code src/test/node/both-eras-client.mjs}), pinned to 2026-07-28 or in {@code auto}
 * mode, over its own stdio transport (a disposable era probe first), against members (the real jar)
 * wrapping an operator's server on the TypeScript SDK 2.4.0 ({@code serveStdio}: the modern era) or on
 * the 1.32.2 SDK (2025 only). Against the modern server both modes are served in 2026-07-28: the
 * child's tools and the fleet's two listed (the fleet lists its verdict resource itself, the child
 * having none), the child's tool and the assessment called, {@code fleet://verdict} read with the
 * assessment's digest, and the child's {@code input_required} result passed unchanged to the client,
 * which asks its user (an elicitation handler) and retries with the answer (§13). Against the 2025 server {@code auto} falls back to 2025 with the same; a
 * pinned client, which has no fallback, is refused by the child's own answer to the probe. After each
 * client's own end nothing of the member trees runs and every row is stopped.
 */
class RelayBothErasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CLIENT_RUN = Duration.ofSeconds(60);
    /** Room to see the trees gone and the rows stopped once the client's own end is over (see RealClientsShutdownIT). */
    private static final Duration SETTLES_WITHIN = Duration.ofSeconds(2);
    private static final String PROFILE = "prgs-author";
    /** Load per core below which a member is never starved for the second its client's SIGKILL leaves it. */
    private static final double QUIET_LOAD = 2;

    @TempDir
    Path dir;

    @BeforeAll
    static void installTheClientAndServers() throws Exception {
        NodeMcpChild.install();
    }

    @ParameterizedTest(name = "a {1} client against a {0} server")
    @CsvSource({"modern, pin", "modern, auto", "2025, pin", "2025, auto"})
    void theClientIsServedInTheErasBothSidesShareAndNothingOfTheMembersRemains(String server, String mode)
            throws Exception {
        NodeMcpChild.requireNodeAndNpm();
        boolean modern = "modern".equals(server);
        Path registry = dir.resolve("registry.sqlite3");
        List<String> child = modern ? List.of("node", NodeMcpChild.MODERN_SERVER.toString()) : NodeMcpChild.direct();
        List<String> member = WrappedMembers.wrapping(registry, PROFILE, child);
        NodeClient.Run run = NodeClient.run(List.of(NodeMcpChild.INSTALLED.resolve("both-eras-client.mjs").toString(),
                mode, modern ? "hello_modern" : "echo", JSON.writeValueAsString(member)), mode, CLIENT_RUN);
        JsonNode result = run.result();

        int members;
        if (!modern && "pin".equals(mode)) {
            assertTrue(result.path("connect_error").asText().contains("no fallback"),
                    "a pinned client has no fallback from the 2025 child's -32601 to server/discover: " + result);
            members = 1; // the probe's only: no session was started
        } else {
            assertEquals(modern ? "2026-07-28" : "2025-11-25", result.path("era").asText(), result.toString());
            List<String> tools = JSON.convertValue(result.get("tools"), List.class);
            assertEquals(modern ? List.of("hello_modern", "confirm_modern", "gitea_assess_fleet_inventory",
                    "gitea_get_runtime_context")
                    : List.of("echo", "ask", "slow", "gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                    tools, "the child's tools, then the fleet's, on the last page");
            assertEquals(modern ? "hello from the modern child" : "received 0 characters",
                    result.path("child").asText(), "the child's tool answered by the child: " + result);
            if (modern) {
                // The child's input_required result and the client's retry with its input passed unchanged.
                assertEquals("confirmed by the client", result.path("confirmed").asText(), result.toString());
                assertEquals(1, result.path("elicited").asInt(), "the client was asked once: " + result);
            }
            assertFalse(result.path("assessed_is_error").asBoolean(), result.toString());
            assertTrue(result.path("assessed_digest").asText().matches("sha256:[0-9a-f]{64}"), result.toString());
            assertEquals(result.path("assessed_digest").asText(), result.path("read_digest").asText(),
                    "fleet://verdict read as the tool assessed: " + result);
            members = 2; // the probe's and the session's
        }

        List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
        assertEquals(members, rows.size(), "one row per member the client started: " + statuses(registry));
        List<Long> pids = new ArrayList<>();
        rows.forEach(row -> {
            pids.add(row.pid());
            pids.add(row.serverPid());
        });
        assertTrue(pids.stream().allMatch(Objects::nonNull), "each row names its member and its server: " + pids);
        settles(() -> pids.stream().noneMatch(WrappedMembers::runs),
                "nothing of the members' trees to run once the client has closed: " + pids);
        // The probe's member gets SIGKILL 1 s after SIGTERM: on a quiet host it has stopped its row by then;
        // on a starved one the kill may come first and leave the stale row §12.1 allows (its process gone).
        boolean quiet = Patience.loadFactor() < QUIET_LOAD;
        settles(() -> new SqliteRegistryReader(registry).readAll().rows().stream()
                .allMatch(row -> "stopped".equals(row.status()) || !quiet && !WrappedMembers.runs(row.pid())),
                quiet ? "every member's row to be stopped" : "every member's row stopped, or stale with its member gone");
    }

    private void settles(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        try {
            Patience.await(SETTLES_WITHIN, Duration.ofMillis(20), condition, "the wait");
        } catch (AssertionError timedOut) {
            throw new AssertionError(what + "; the rows: " + statuses(dir.resolve("registry.sqlite3")), timedOut);
        }
    }

    private static List<String> statuses(Path registry) {
        return new SqliteRegistryReader(registry).readAll().rows().stream()
                .map(row -> "pid " + row.pid() + " server " + row.serverPid() + " " + row.status()).toList();
    }

    /** Whatever a failing run left behind is killed: the members of this test's registry and their servers. */
    @AfterEach
    void killWhatIsLeft() {
        WrappedMembers.killWhatIsLeft(dir.resolve("registry.sqlite3"));
    }
}
