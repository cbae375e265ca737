package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the CLI does with registries it must not trust: a FIFO at the path, a table another tool made
 * without columns the contract needs, a migration lock held by a migration that stopped. Each is
 * answered promptly, in one line, with the documented exit code, and changes nothing.
 */
class OddRegistriesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aFifoIsAnsweredAtOnceAsAnUnreadableRegistry() throws Exception {
        Path fifo = dir.resolve("registry.sqlite3");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        Assumptions.assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo unavailable");

        FleetJar.Run assess = FleetJar.run("assess", "--registry", fifo.toString(), "--format", "json");
        assertEquals(1, assess.exitCode(), assess.stderr());
        JsonNode verdict = JSON.readTree(assess.stdout());
        assertEquals("io_error", verdict.at("/registry/reason").asText());
        assertEquals("registry_unreadable", verdict.get("blocked_reason").asText());

        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", fifo.toString());
        assertEquals(1, list.exitCode(), list.stderr());

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", fifo.toString());
        assertEquals(2, migrate.exitCode());
        assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
        assertTrue(migrate.stderr().contains("is not a regular file"), migrate.stderr());
        try (var entries = Files.list(dir)) {
            assertEquals(List.of(fifo), entries.toList(), "nothing created beside it");
        }
    }

    @Test
    void migrateRefusesATableLackingColumnsAndNamesThem() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, "
                    + "profile TEXT, role TEXT, remote TEXT, org TEXT, repo TEXT, repository_root TEXT, "
                    + "pid INTEGER NOT NULL, cohort_id TEXT, cohort_source TEXT NOT NULL, client_provenance TEXT, "
                    + "transport TEXT, status TEXT NOT NULL, registered_at TEXT NOT NULL, "
                    + "last_heartbeat_at TEXT NOT NULL)");
        }
        byte[] before = Files.readAllBytes(registry);

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());

        assertEquals(2, migrate.exitCode(), migrate.stdout());
        assertEquals(List.of(), migrate.stdout().lines().toList(), "no claim of a schema version");
        assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
        assertTrue(migrate.stderr().contains("lacks columns boot_id, startup_head, stopped_at"), migrate.stderr());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(registry)), "nothing was changed");

        FleetJar.Run assess = FleetJar.run("assess", "--registry", registry.toString());
        assertEquals(1, assess.exitCode(), assess.stderr());
        assertTrue(assess.stdout().contains("lacks columns boot_id, startup_head, stopped_at"), assess.stdout());
    }

    @Test
    void migrateWaitsBoundedlyForAStoppedMigrationAndNamesItsHolder() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path lockFile = registry.resolveSibling(registry.getFileName() + ".migration-lock");
        Path holderSource = dir.resolve("HoldMigrationLock.java");
        Files.writeString(holderSource, """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class HoldMigrationLock {
                    public static void main(String[] args) throws Exception {
                        FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                        channel.lock();
                        channel.write(java.nio.ByteBuffer.wrap((ProcessHandle.current().pid() + "\\n").getBytes()));
                        System.out.println("locked");
                        Thread.sleep(Long.MAX_VALUE);
                    }
                }
                """);
        Process holder = new ProcessBuilder(FleetJar.javaBinary(), holderSource.toString(), lockFile.toString()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine(), "the stand-in for a stopped migration holds the lock");

            FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());

            assertEquals(2, migrate.exitCode(), migrate.stdout());
            assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
            assertTrue(migrate.stderr().contains("still held by pid " + holder.pid()), migrate.stderr());
            assertFalse(Files.exists(registry), "nothing was created while the lock was held");
        } finally {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMegabyteOfArgvIsCappedSoTheVerdictStaysAnswerable() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", registry.toString()).exitCode());
        // bash stays the parent of sleep (the script does not end in it), so bash keeps this argv:
        // 14 arguments of 120 KiB (one argument may hold 128 KiB), 1.68 MB in all, looking like a server.
        List<String> command = new java.util.ArrayList<>(List.of("bash", "-c", "sleep 600; :", "fleet.jar", "serve",
                "--registry", registry.toString()));
        for (int i = 0; i < 14; i++) {
            command.add(String.valueOf((char) ('a' + i)).repeat(120 * 1024));
        }
        Process big = new ProcessBuilder(command).start();
        try {
            FleetJar.Run assess = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                    TestFleets.roster(registry).toString(), "--format", "json");

            assertEquals(1, assess.exitCode(), assess.stderr());
            assertTrue(assess.stdout().length() < 64 * 1024, "an answer every client takes: " + assess.stdout().length());
            JsonNode stray = JSON.readTree(assess.stdout()).get("unregistered_processes").get(0);
            assertEquals(big.pid(), stray.get("pid").asLong());
            String shown = stray.get("command_line").asText();
            assertTrue(shown.startsWith("bash -c sleep 600; : fleet.jar serve --registry " + registry), shown);
            int length = String.join(" ", command).length();
            assertTrue(shown.endsWith("…[truncated, " + length + " chars]"), shown.substring(4000));
            assertEquals(4096, shown.indexOf('…'));
        } finally {
            // the sleep first: ending bash alone would leave it to run its ten minutes out
            big.descendants().forEach(ProcessHandle::destroyForcibly);
            big.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
