package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.launcher.Launcher;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that dies while its server is still starting, through the real {@code ./fleet} launcher
 * ({@link ClientTree}: a {@code python3} subreaper adopts the server). The race is made certain: the
 * client leaves as soon as the launcher has {@code exec}'d java, and the JVM is held before its main
 * (its {@code FLEET_JAVA_OPTS} name an argument file that is a FIFO, which the java launcher reads
 * before it starts the JVM) until the server has been reparented. The server must not take the
 * subreaper that adopted it for its client: no parent recorded, no {@code ppid:} cohort, so no
 * assessment can be satisfied by it; and it stops by itself as an orphan, unless kept.
 */
class OrphanAtStartIT {

    @TempDir
    Path dir;

    @BeforeAll
    static void needsPythonAndMkfifo() throws Exception {
        for (List<String> probe : List.of(List.of("python3", "-c", "import ctypes"), List.of("mkfifo", "--version"))) {
            Process process = new ProcessBuilder(probe).redirectErrorStream(true).start();
            org.junit.jupiter.api.Assumptions.assumeTrue(process.waitFor() == 0, probe.get(0) + " is needed");
        }
    }

    private Path registry() {
        return dir.resolve("control_plane.sqlite3");
    }

    /** A roster of the one member served here: a fleet that one well-started server completes. */
    private Path roster() {
        return TestFleets.roster(registry(),
                "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", \"role\": \"author\"}", "one.json");
    }

    /** {@code ./fleet serve}, as an MCP client configured by {@code fleet mcp-config} starts it. */
    private List<String> launcherServe(String... extra) {
        List<String> command = new ArrayList<>(List.of(Launcher.PATH.toString(), "serve", "--profile", "prgs-author",
                "--registry", registry().toString(), "--roster", roster().toString(),
                "--repository-root", TestFleets.repository(registry()).toString(), "--cohort-from-parent"));
        command.addAll(List.of(extra));
        return command;
    }

    @Test
    void aServerWhoseClientDiedWhileItStartedRecordsNoParentAndStopsByItself() throws Exception {
        Path hold = fifo();
        try (ClientTree tree = ClientTree.startLeaving(dir, launcherServe(), Map.of("FLEET_JAVA_OPTS", "@" + hold))) {
            long server = adoptedWhileHeld(tree, hold);

            RegistryRow row = awaitRow();
            assertEquals(server, row.pid());
            assertNull(row.parentPid(), "the subreaper that adopted it is not its client: " + row);
            assertNull(row.parentStartedAt(), row.toString());
            assertNull(row.cohortId(), "no ppid: cohort from a parent it was not started by: " + row);
            assertEquals("unknown", row.cohortSource(), row.toString());

            assertEquals(0, tree.serverExit(server), tree.serverStderr());
            assertEquals("stopped", new SqliteRegistryReader(registry()).readAll().rows().get(0).status());
            List<String> stopping = tree.serverStderr().lines()
                    .filter(line -> line.contains("marking this server stopped")).toList();
            assertEquals(1, stopping.size(), tree.serverStderr());
            assertTrue(stopping.get(0).contains("client gone: parent pid " + tree.clientPid()), stopping.get(0));
        }
    }

    @Test
    void keptWithoutItsClientItsCohortIsUnknownAndTheGateStaysClosed() throws Exception {
        Path hold = fifo();
        try (ClientTree tree = ClientTree.startLeaving(dir, launcherServe("--keep-without-client"),
                Map.of("FLEET_JAVA_OPTS", "@" + hold))) {
            long server = adoptedWhileHeld(tree, hold);

            RegistryRow row = awaitRow();
            assertNull(row.parentPid(), row.toString());
            assertNull(row.cohortId(), row.toString());
            FleetJar.Run assess = FleetJar.run("assess", "--registry", registry().toString(), "--roster",
                    roster().toString(), "--format", "json");
            JsonNode verdict = assess.stdoutJson();
            assertEquals(1, assess.exitCode(), "never GATE SATISFIED: " + verdict);
            assertFalse(verdict.get("mutation_gate_satisfied").asBoolean(), verdict.toString());
            assertEquals(1, verdict.get("running_member_count").asInt(), verdict.toString());
            assertTrue(verdict.get("blocked_reasons").toString().contains("\"cohort_unknown\""), verdict.toString());
            assertTrue(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false), "kept: " + tree.serverStderr());

            tree.closeStdin();
            assertEquals(0, tree.serverExit(server), "EOF still ends it: " + tree.serverStderr());
        }
    }

    @Test
    void throughTheLauncherALivingClientIsRecordedAndItsDeathStopsTheServer() throws Exception {
        try (ClientTree tree = ClientTree.start(dir, launcherServe(), Map.of())) {
            RegistryRow row = TestFleets.awaitRunningRows(registry(), 1).get(0);
            long client = tree.clientPid();
            assertEquals(client, row.parentPid(), row.toString());
            assertEquals("ppid:" + client, row.cohortId(), row.toString());

            tree.killClient();
            long server = tree.serverPid();
            assertEquals(0, tree.serverExit(server), tree.serverStderr());
            assertTrue(tree.serverStderr().contains("client gone: parent pid " + client + " exited"), tree.serverStderr());
        }
    }

    private Path fifo() throws Exception {
        Path fifo = dir.resolve("hold-jvm-options");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assertTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo " + fifo);
        return fifo;
    }

    /**
     * Waits until the client has gone and the held server has been adopted by the subreaper, then
     * lets its JVM start; returns the server's pid.
     */
    private static long adoptedWhileHeld(ClientTree tree, Path hold) throws Exception {
        long client = tree.clientPid();
        long server = tree.serverPid();
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (parentOf(server).equals(OptionalLong.of(client))) {
            assertTrue(System.nanoTime() < deadline, "the client never left: " + tree.serverStderr());
            Thread.sleep(20);
        }
        assertTrue(parentOf(server).isPresent(), "the server is still there, held: " + tree.serverStderr());
        release(hold);
        return server;
    }

    private static OptionalLong parentOf(long pid) {
        return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(parent -> OptionalLong.of(parent.pid()))
                .orElse(OptionalLong.empty());
    }

    /**
     * Writes the argument file the java launcher is waiting to read (one harmless option). Opening a FIFO
     * blocks until its reader is there, so the write runs on a thread of its own, bounded.
     */
    private static void release(Path hold) throws Exception {
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(hold, "-Dfleet.test.held=released\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "release-held-jvm");
        writer.setDaemon(true);
        writer.start();
        writer.join(Patience.scaled(Duration.ofSeconds(30)).toMillis());
        assertFalse(writer.isAlive(), "the java launcher never read its argument file " + hold);
    }

    /** The one row the server writes, whatever its status (an orphan's may already be stopped). */
    private RegistryRow awaitRow() throws InterruptedException {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry());
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (System.nanoTime() < deadline) {
            var read = reader.readAll();
            if (read.readable() && read.rows().size() == 1) {
                return read.rows().get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server never registered: " + reader.readAll());
    }
}
