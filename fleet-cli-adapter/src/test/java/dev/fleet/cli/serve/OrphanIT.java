package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphans with real process trees ({@link ClientTree}): a client shell starts {@code fleet serve} and
 * exits while the test still holds the server's stdin, so no EOF ever comes. The server stops by itself
 * (exit 0, row stopped, one stderr line); with {@code --keep-without-client} it stays, and every
 * assessment names it as orphaned, also when the client's pid now names an unrelated process; an HTTP
 * server is never orphaned.
 */
class OrphanIT {

    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "client-a");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsPython() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import ctypes").redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(probe.waitFor() == 0, "python3 (the test's subreaper) is needed");
    }

    private Path registry() {
        return dir.resolve("control_plane.sqlite3");
    }

    private List<String> serve(String... extra) {
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(registry(), "prgs-author"));
        command.addAll(List.of(extra));
        return command;
    }

    private JsonNode assess() throws Exception {
        return FleetJar.run("assess", "--registry", registry().toString(), "--roster",
                TestFleets.roster(registry()).toString(), "--format", "json").stdoutJson();
    }

    /** Assesses until {@code wanted} holds (a minute on a quiet host, scaled): the client's death takes a moment to show. */
    private JsonNode assessUntil(Predicate<JsonNode> wanted, String what) throws Exception {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        JsonNode verdict = assess();
        while (!wanted.test(verdict) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            verdict = assess();
        }
        assertTrue(wanted.test(verdict), what + ": " + verdict);
        return verdict;
    }

    private RegistryRow row(String runtimeId) {
        return new SqliteRegistryReader(registry()).readAll().rows().stream()
                .filter(row -> row.runtimeId().equals(runtimeId)).findFirst().orElseThrow();
    }

    private void setParent(String runtimeId, long pid, Instant startedAt) throws Exception {
        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + registry());
                PreparedStatement update = sql.prepareStatement(
                        "UPDATE mcp_server_runtimes SET parent_pid = ?, parent_started_at = ? WHERE runtime_id = ?")) {
            update.setLong(1, pid);
            update.setString(2, Timestamps.format(startedAt));
            update.setString(3, runtimeId);
            assertEquals(1, update.executeUpdate());
        }
    }

    @Test
    void aServerWhoseClientDiesStopsByItselfAsOnEof() throws Exception {
        try (ClientTree tree = ClientTree.start(dir, serve(), COHORT)) {
            RegistryRow registered = TestFleets.awaitRunningRows(registry(), 1).get(0);
            long client = tree.clientPid();
            long server = tree.serverPid();
            assertEquals(server, registered.pid());
            assertEquals(client, registered.parentPid(), "the server records the client that started it");
            Instant clientStart = ProcessHandle.of(client).orElseThrow().info().startInstant().orElseThrow();
            assertFalse(ObservedProcess.startsDisagree(clientStart, Instant.parse(registered.parentStartedAt())),
                    "and the client's start, read as every start is: " + registered);

            tree.killClient();

            assertEquals(0, tree.serverExit(server), tree.serverStderr());
            assertEquals("stopped", row(registered.runtimeId()).status());
            List<String> stopping = tree.serverStderr().lines().filter(line -> line.contains("marking this server stopped"))
                    .toList();
            assertEquals(1, stopping.size(), tree.serverStderr());
            assertTrue(stopping.get(0).contains("client gone: parent pid " + client + " exited"), stopping.get(0));
        }
    }

    @Test
    void keptWithoutItsClientTheServerStaysAndEveryVerdictNamesTheOrphan() throws Exception {
        try (ClientTree tree = ClientTree.start(dir, serve("--keep-without-client"), COHORT)) {
            RegistryRow registered = TestFleets.awaitRunningRows(registry(), 1).get(0);
            long client = tree.clientPid();
            long server = tree.serverPid();
            tree.killClient();

            JsonNode verdict = assessUntil(v -> v.get("orphaned_instances").size() == 1, "the orphan is listed");
            JsonNode orphan = verdict.get("orphaned_instances").get(0);
            assertEquals(server, orphan.get("pid").asLong());
            assertEquals(client, orphan.get("parent_pid").asLong());
            assertEquals(registered.parentStartedAt(), orphan.get("parent_started_at").asText());
            assertEquals("orphaned_member", verdict.get("blocked_reason").asText());
            JsonNode reason = verdict.get("blocked_reasons").get(0);
            assertTrue(reason.get("action").asText().startsWith("Stop pid " + server + " yourself: its client is gone"),
                    reason.toString());
            assertEquals(1, verdict.get("running_member_count").asInt(), "an orphan stays an instance");
            assertTrue(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false), "it stays");
            assertEquals("running", row(registered.runtimeId()).status());

            String text = FleetJar.run("assess", "--registry", registry().toString(), "--roster",
                    TestFleets.roster(registry()).toString()).stdout();
            assertTrue(text.contains(server + "(orphan)"), text);
            assertTrue(text.contains("pid " + server + "  orphaned: client pid " + client + " is gone"), text);

            tree.closeStdin();
            assertEquals(0, tree.serverExit(server), "EOF still ends it: " + tree.serverStderr());
        }
    }

    @Test
    void aClientPidRecycledByAnUnrelatedProcessDoesNotHideTheOrphan() throws Exception {
        try (ClientTree tree = ClientTree.start(dir, serve("--keep-without-client"), COHORT)) {
            RegistryRow registered = TestFleets.awaitRunningRows(registry(), 1).get(0);
            tree.clientPid();
            tree.killClient();
            Instant clientStarted = Instant.parse(registered.parentStartedAt());
            // The unrelated process must start well after the client did, as a recycled pid's does.
            while (Instant.now().isBefore(clientStarted.plusMillis(1_500))) {
                Thread.sleep(50);
            }
            try (MarkerProcess unrelated = MarkerProcess.start("unrelated-" + MarkerProcess.marker())) {
                // The client's pid, as the row recorded it, now names the unrelated process.
                setParent(registered.runtimeId(), unrelated.pid(), clientStarted);
                JsonNode verdict = assessUntil(v -> v.get("orphaned_instances").size() == 1, "the orphan is listed");
                assertEquals(unrelated.pid(), verdict.at("/orphaned_instances/0/parent_pid").asLong());
                assertEquals("orphaned_member", verdict.get("blocked_reason").asText());

                // The same pid with the unrelated process's own start is a live client: no orphan.
                Instant unrelatedStart = ProcessHandle.of(unrelated.pid()).orElseThrow().info().startInstant()
                        .orElseThrow();
                setParent(registered.runtimeId(), unrelated.pid(), unrelatedStart);
                JsonNode alive = assessUntil(v -> v.get("orphaned_instances").isEmpty(), "a live client orphans nothing");
                assertNotNull(alive.get("blocked_reason"));
                assertFalse(alive.get("blocked_reason").asText().equals("orphaned_member"), alive.toString());
            }
        }
    }

    @Test
    void anHttpServerIsNeverOrphanedAndDoesNotWatchItsParent() throws Exception {
        try (ClientTree tree = ClientTree.start(dir, serve("--transport", "http", "--port", "0"), COHORT)) {
            RegistryRow registered = TestFleets.awaitRunningRows(registry(), 1).get(0);
            long client = tree.clientPid();
            long server = tree.serverPid();
            assertEquals(client, registered.parentPid(), "it records its parent too");
            tree.killClient();
            while (ProcessHandle.of(client).map(ProcessHandle::isAlive).orElse(false)) {
                Thread.sleep(50);
            }
            // Several of a stdio server's watch periods go by.
            Thread.sleep(Patience.scaled(Duration.ofSeconds(3)).toMillis());

            JsonNode verdict = assess();
            assertEquals(0, verdict.get("orphaned_instances").size(), verdict.toString());
            assertEquals(1, verdict.get("running_member_count").asInt(), verdict.toString());
            assertFalse(verdict.get("blocked_reasons").toString().contains("orphaned_member"), verdict.toString());
            assertTrue(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false), tree.serverStderr());
            assertFalse(tree.serverStderr().contains("client gone"), tree.serverStderr());

            ProcessHandle.of(server).ifPresent(ProcessHandle::destroy); // SIGTERM: an HTTP server's stop
            assertEquals(143, tree.serverExit(server), tree.serverStderr());
            assertEquals("stopped", row(registered.runtimeId()).status());
        }
    }
}
