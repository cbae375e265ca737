package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./fleet} launcher at the repository root, as operators and MCP clients run it. */
class LauncherIT {

    private static final Path LAUNCHER = Path.of("..", "fleet").toAbsolutePath().normalize();

    private static ProcessBuilder launcher(Path launcher, String... args) {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(launcher.toString()));
        command.addAll(java.util.List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        return builder;
    }

    @Test
    void runsTheJarWithTheGivenArguments(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process process = launcher(LAUNCHER, "registry", "migrate", "--registry", registry.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertEquals("registry " + registry + " at schema version 6\n", output);
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
            for (int attempt = 0; attempt < 600 && rows.isEmpty(); attempt++) {
                Thread.sleep(50);
                rows = new SqliteRegistryReader(registry).readAll().rows();
            }
            assertEquals(1, rows.size(), Files.readString(dir.resolve("stderr")));
            assertEquals(server.pid(), rows.get(0).pid(), "exec: the registered pid is the launcher's");
            assertEquals(0, server.children().count(), "no wrapper process is left beside the server");
        } finally {
            server.getOutputStream().close();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        }
        assertEquals("stopped", new SqliteRegistryReader(registry).readAll().rows().get(0).status());
        assertTrue(new File(LAUNCHER.toString()).canExecute());
    }
}
