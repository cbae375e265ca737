package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet serve} started with its stdin closed ({@code <&-}, as a careless script may) has no client: it stops
 * as on stdin EOF, its row stopped, exit 0, and writes nothing to stdout. The JVM's first open took descriptor 0
 * (the JDK's {@code lib/modules}), and the server read that file as its client's lines: hundreds of thousands of
 * parse errors on stdout, served on until the file ended.
 */
class ServeStdinClosedIT {

    @Test
    void aClosedStdinIsNoClientTheServerStopsAsOnEof(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        assertStopsAsOnEof(dir, registry, ServeProcess.serveCommand(registry, "prgs-author"),
                "stdin was closed when this server started");
    }

    /** The same for a member that wraps a server of its own: its stdin was read as the client's lines too. */
    @Test
    void aClosedStdinIsNoClientTheWrappingMemberStopsAsOnEof(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(registry, "prgs-author"));
        command.addAll(List.of("--", "sleep", "600"));
        assertStopsAsOnEof(dir, registry, command, "stdin was closed when this member started");
    }

    private static void assertStopsAsOnEof(Path dir, Path registry, List<String> serve, String warning)
            throws Exception {
        // Migrated first, so that the server's registration is quick enough to be seen: one that ends before it
        // has finished leaves no row, and every row stopped would then hold of none.
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        String command = serve.stream().map(ServeStdinClosedIT::quoted).collect(Collectors.joining(" ", "exec ", " <&-"));
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        TestFleets.isolate(builder.environment());
        Process server = builder.start();
        boolean ended = server.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS);
        server.destroyForcibly();
        server.waitFor(30, TimeUnit.SECONDS);
        String said = Files.readString(stderr);
        String written = Files.readString(stdout);
        assertEquals("", written.length() > 2000 ? written.substring(0, 2000) + "…" : written,
                "stdout carries a client's answers only; this server has none");
        assertTrue(ended, "still serving a closed stdin (" + Patience.describe() + "): " + said);
        assertEquals(0, server.exitValue(), said);
        assertTrue(said.contains(warning), said);
        List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
        assertTrue(rows.stream().allMatch(row -> "stopped".equals(row.status())), rows + "\n" + said);
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
