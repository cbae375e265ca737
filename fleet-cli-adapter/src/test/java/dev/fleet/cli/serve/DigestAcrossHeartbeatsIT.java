package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller and the reconciler agree on the digest of an unchanged fleet whenever each
 * answers: heartbeats are liveness ticks, not fleet state. Five real servers heartbeat every
 * second; the controller answers, every member heartbeats at least once, the reconciler answers.
 */
class DigestAcrossHeartbeatsIT {

    private static final String CALL_ASSESS =
            "{\"name\":\"gitea_assess_fleet_inventory\",\"arguments\":{}}";

    @TempDir
    Path dir;

    @Test
    void theControllerAndTheReconcilerReturnOneDigestEitherSideOfAHeartbeat() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        List<ServeProcess> servers = new ArrayList<>();
        try {
            for (String profile : List.of("prgs-author", "prgs-reviewer", "prgs-controller", "prgs-merger",
                    "prgs-reconciler")) {
                servers.add(ServeProcess.start(registry, profile, Map.of("GITEA_MCP_COHORT_ID", "one-client"),
                        "--heartbeat-seconds", "1"));
            }
            ServeProcess controller = servers.get(2);
            ServeProcess reconciler = servers.get(4);
            controller.initialize();
            reconciler.initialize();
            TestFleets.awaitRunningRows(registry, 5);

            JsonNode first = verdict(controller, 10);
            // After the newest heartbeat the first answer saw (not one read before it: a slow first call may
            // already carry later ones), every member beats again before the second answer.
            Instant lastTick = heartbeats(first).stream().map(tick -> Timestamps.parse(tick).orElseThrow())
                    .max(Instant::compareTo).orElseThrow();
            awaitEveryHeartbeatAfter(registry, lastTick);
            JsonNode second = verdict(reconciler, 11);

            assertTrue(first.get("mutation_gate_satisfied").asBoolean(), first.toString());
            assertTrue(second.get("mutation_gate_satisfied").asBoolean(), second.toString());
            assertNotEquals(heartbeats(first), heartbeats(second), "a heartbeat happened between the two answers");
            assertEquals(first.get("verdict_digest"), second.get("verdict_digest"));
        } finally {
            for (ServeProcess server : servers) {
                server.close();
            }
        }
    }

    private static JsonNode verdict(ServeProcess server, int id) throws Exception {
        JsonNode response = server.request(id, "tools/call", CALL_ASSESS);
        assertTrue(response.has("result"), response.toString());
        return response.at("/result/structuredContent");
    }

    private static List<String> heartbeats(JsonNode verdict) {
        List<String> ticks = new ArrayList<>();
        verdict.get("members").forEach(member ->
                member.get("instances").forEach(instance -> ticks.add(instance.get("last_heartbeat_at").asText())));
        return ticks;
    }


    private static void awaitEveryHeartbeatAfter(Path registry, Instant instant) throws InterruptedException {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (System.nanoTime() < deadline) {
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            if (read.readable() && read.rows().size() == 5 && read.rows().stream().allMatch(row ->
                    Timestamps.parse(row.lastHeartbeatAt()).orElseThrow().isAfter(instant))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the members never heartbeat after " + instant + ": " + reader.readAll());
    }
}
