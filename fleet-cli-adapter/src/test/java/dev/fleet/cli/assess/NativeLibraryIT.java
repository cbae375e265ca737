package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract: an assessment starts no process, "nor does any library it calls". sqlite-jdbc, left
 * alone, runs {@code uname -o} through PATH and extracts a fresh native library into the temp
 * folder in every JVM; the packaged jar must do neither. Each JVM here gets a private temp folder
 * ({@code -Djava.io.tmpdir}) and a private, empty {@code XDG_CACHE_HOME}, so each test also covers a
 * first start, when the library is copied into the cache.
 */
class NativeLibraryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Per JVM; nothing here is timed, a loaded machine only makes it slower. */
    private static final long JVM_TIMEOUT_MINUTES = 3;

    @TempDir
    Path dir;

    @Test
    void assessStartsNoProcessButTheJvmItself() throws Exception {
        Path strace = onPath("strace").orElse(null);
        Assumptions.assumeTrue(strace != null, "strace is not installed: cannot watch execve here");
        Path registry = migratedRegistry();
        Path trace = dir.resolve("execve.trace");

        Run run = start(List.of(strace.toString(), "-f", "-qq", "-e", "trace=execve", "-o", trace.toString()),
                Map.of(), "assess", "--registry", registry.toString(), "--format", "json").finish();

        List<String> execves = Files.readAllLines(trace, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("execve(")).toList();
        Assumptions.assumeFalse(execves.isEmpty() && run.stderr().contains("ptrace"),
                "strace cannot trace here (ptrace is not permitted): " + run.stderr());
        assertReadTheRegistry(run);
        assertEquals(1, execves.size(), "the only execve is java's own; every one seen:\n" + String.join("\n", execves));
        assertTrue(execves.get(0).contains("execve(\"" + FleetJar.javaBinary() + "\""), execves.get(0));
    }

    @Test
    void aUnamePlantedFirstInPathNeverRuns() throws Exception {
        Path registry = migratedRegistry();
        Path bin = Files.createDirectories(dir.resolve("planted-bin"));
        Path marker = dir.resolve("uname-ran");
        Path uname = Files.writeString(bin.resolve("uname"),
                "#!/bin/sh\necho \"uname $*\" >> '" + marker + "'\necho GNU/Linux\n");
        Files.setPosixFilePermissions(uname, PosixFilePermissions.fromString("rwxr-xr-x"));

        Run run = start(List.of(), Map.of("PATH", bin + File.pathSeparator + System.getenv("PATH")),
                "assess", "--registry", registry.toString(), "--format", "json").finish();

        assertReadTheRegistry(run);
        assertFalse(Files.exists(marker), () -> "the planted uname ran: " + read(marker));
    }

    @Test
    void jvmsStartingTogetherLeaveTheTempFolderAloneAndStderrQuiet() throws Exception {
        Path registry = migratedRegistry();
        // The driver's start-up cleanup deletes every "sqlite-<version>*" entry of the temp folder that
        // lacks a ".lck"; when a JVM starting beside it deletes one first, the delete fails and it logs
        // a stack trace. An entry no delete can remove stands in for that race, deterministically.
        Path leftover = Files.createDirectories(dir.resolve("tmp")
                .resolve("sqlite-" + org.sqlite.SQLiteJDBCLoader.getVersion() + "-of-another-program.so"));
        Files.writeString(leftover.resolve("keeps-it-undeletable"), "");

        List<Running> jvms = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jvms.add(start(List.of(), Map.of(), "assess", "--registry", registry.toString(), "--format", "json"));
        }
        List<Run> runs = new ArrayList<>();
        for (Running jvm : jvms) {
            runs.add(jvm.finish());
        }

        for (Run run : runs) {
            assertFalse(run.stderr().contains("Failed to delete"), run.stderr());
            assertReadTheRegistry(run);
        }
        assertEquals(List.of(leftover, leftover.resolve("keeps-it-undeletable")), everythingUnder(dir.resolve("tmp")),
                "no library was extracted to the temp folder, and nothing there was touched");
        List<Path> cached = everythingUnder(dir.resolve("cache")).stream().filter(Files::isRegularFile).toList();
        assertEquals(1, cached.size(), "one copy in the cache for all four, no temporary file left: " + cached);
        assertEquals("libsqlitejdbc.so", cached.get(0).getFileName().toString());
    }

    @Test
    void aServerKilledWithSigkillLeavesNoLibraryInTheTempFolder() throws Exception {
        Path registry = dir.resolve("state/control_plane.sqlite3");
        Running server = start(List.of(), Map.of(), true, "serve", "--profile", "prgs-author",
                "--registry", registry.toString(), "--roster", TestFleets.roster(registry).toString(),
                "--repository-root", TestFleets.repository(registry).toString());
        try {
            awaitRegistration(registry, server);
        } finally {
            server.process().destroyForcibly(); // SIGKILL: no shutdown hook, no deleteOnExit
            server.process().waitFor(JVM_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        }

        assertEquals(List.of(), everythingUnder(dir.resolve("tmp")));
        String stderr = read(server.err());
        assertFalse(stderr.contains("Failed to delete") || stderr.contains("not cached"), stderr);
    }

    // --- helpers ---------------------------------------------------------------------------------

    private record Run(int exitCode, String stdout, String stderr) {
    }

    private record Running(Process process, Path out, Path err) {

        Run finish() throws InterruptedException {
            if (!process.waitFor(JVM_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("a fleet JVM did not finish within " + JVM_TIMEOUT_MINUTES + " min");
            }
            return new Run(process.exitValue(), read(out), read(err));
        }
    }

    private Running start(List<String> prefix, Map<String, String> env, String... args) throws IOException {
        return start(prefix, env, false, args);
    }

    /**
     * {@code prefix java -Djava.io.tmpdir=<dir>/tmp -jar fleet.jar args}, with XDG_CACHE_HOME at
     * {@code <dir>/cache}, in an environment isolated as {@link FleetJar} isolates it.
     */
    private Running start(List<String> prefix, Map<String, String> env, boolean keepStdinOpen, String... args)
            throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(FleetJar.javaBinary(), "-Djava.io.tmpdir=" + tmp, "-jar", FleetJar.JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        builder.environment().put("XDG_STATE_HOME", Files.createDirectories(dir.resolve("state-home")).toString());
        builder.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        builder.environment().putAll(env);
        if (!keepStdinOpen) {
            builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        builder.directory(Files.createDirectories(dir.resolve("cwd")).toFile());
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        return new Running(builder.start(), out, err);
    }

    private Path migratedRegistry() {
        Path registry = dir.resolve("control_plane.sqlite3");
        new SqliteRegistryWriter(registry).migrate();
        return registry;
    }

    /** An empty fleet: exit 1, a readable registry (so the driver did load), JSON alone on stdout, quiet stderr. */
    private static void assertReadTheRegistry(Run run) throws IOException {
        assertEquals(1, run.exitCode(), run.stderr());
        JsonNode verdict = JSON.readTree(run.stdout());
        assertTrue(verdict.at("/registry/readable").asBoolean(), run.stdout());
        assertEquals("", run.stderr());
    }

    private static void awaitRegistration(Path registry, Running server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(JVM_TIMEOUT_MINUTES);
        while (System.nanoTime() < deadline) {
            if (Files.exists(registry) && !new SqliteRegistryReader(registry).readAll().rows().isEmpty()) {
                return;
            }
            if (!server.process().isAlive()) {
                throw new AssertionError("the server ended before registering: " + read(server.err()));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server never registered: " + read(server.err()));
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(folder -> !folder.isEmpty())
                .map(folder -> Path.of(folder, program))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static List<Path> everythingUnder(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.walk(folder)) {
            return entries.filter(entry -> !entry.equals(folder)).sorted().toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
