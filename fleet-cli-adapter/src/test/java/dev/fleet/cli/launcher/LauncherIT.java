package dev.fleet.cli.launcher;

import static dev.fleet.cli.launcher.Launcher.launcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./fleet} launcher at the repository root, as operators and MCP clients run it: what it
 * execs, and with which JVM options. Its rebuild of a stale jar is {@link LauncherRebuildIT}'s, its
 * choice of java {@link LauncherJavaIT}'s.
 */
class LauncherIT {

    private static final Path LAUNCHER = Launcher.PATH;

    @Test
    void runsTheJarWithTheGivenArguments(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process process = launcher(LAUNCHER, "registry", "migrate", "--registry", registry.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertEquals("registry " + registry + " at schema version 7\n", output);
    }

    /** A migration maps Liquibase from the server's archive, whose training migrates a fresh registry. */
    @Test
    void aMigrationRunsWithTheServersClassDataArchive(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path classLog = dir.resolve("classes.log");
        ProcessBuilder builder = launcher(LAUNCHER, "registry", "migrate", "--registry", registry.toString());
        builder.environment().put("FLEET_JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog);
        FleetJar.Run run = Launcher.finish(Launcher.start(builder));
        assertEquals(0, run.exitCode(), run.stderr());
        FleetJar.assertMappedFromTheArchive(classLog, "liquibase.Scope");
    }

    /**
     * A JVM that refuses its options exits 1, which reads as an answer (a gate not satisfied, strays): the
     * launcher refuses them itself, with exit 2 and the JVM's own words on one line, and runs nothing.
     */
    @Test
    void optionsTheJavaRefusesAreTheLaunchersRefusalNeverAnAnswer(@TempDir Path dir) throws Exception {
        for (String refused : List.of("-XX:+NoSuchFleetOption" + System.nanoTime(), "-Xmx1k")) {
            ProcessBuilder builder = launcher(LAUNCHER, "assess", "--registry", dir.resolve("r.sqlite3").toString());
            builder.environment().put("FLEET_JAVA_OPTS", "-Xmx256m " + refused);
            FleetJar.Run run = Launcher.finish(Launcher.start(builder));
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals("", run.stdout());
            assertEquals(1, run.stderrLines().size(), run.stderr());
            assertTrue(run.stderr().startsWith("fleet: FLEET_JAVA_OPTS is refused by "), run.stderr());
        }
        ProcessBuilder taken = launcher(LAUNCHER, "roster");
        taken.environment().put("FLEET_JAVA_OPTS", "-Xmx256m");
        assertEquals(0, Launcher.finish(Launcher.start(taken)).exitCode(), "options the java takes run the verb");
    }

    @Test
    void worksThroughASymlinkAsFromAnInstalledBinDirectory(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("fleet"), LAUNCHER);
        Process process = launcher(link, "roster").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.startsWith("binding  remote=prgs"), output);
    }

    @Test
    void theServerIsTheLaunchersOwnProcessNotAChildOfIt(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process server = launcher(LAUNCHER, "serve", "--profile", "prgs-merger", "--registry", registry.toString())
                .redirectError(dir.resolve("stderr").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            List<RegistryRow> rows = List.of();
            long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
            while (rows.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                rows = new SqliteRegistryReader(registry).readAll().rows();
            }
            assertEquals(1, rows.size(), Files.readString(dir.resolve("stderr")));
            assertEquals(server.pid(), rows.get(0).pid(), "exec: the registered pid is the launcher's");
            assertEquals(0, server.children().count(), "no wrapper process is left beside the server");
        } finally {
            server.getOutputStream().close();
            assertTrue(server.waitFor(Patience.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS));
        }
        assertEquals("stopped", new SqliteRegistryReader(registry).readAll().rows().get(0).status());
        assertTrue(new File(LAUNCHER.toString()).canExecute());
    }
}
