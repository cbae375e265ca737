package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watched from outside with strace: reading a registry starts no process (the driver's {@code uname}
 * probe, through {@code jspawnhelper}) and extracts nothing into the temp folder, whatever the cache
 * folder is: unwritable ({@code XDG_CACHE_HOME=/proc/self}, as root too) or under a HOME that does
 * not exist (which is never created).
 */
class DriverStartsNothingTest {

    @TempDir
    Path dir;

    @Test
    void anUnwritableCacheFolderStartsNoProcessAndTheDriverExtractsNothing() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Result result = readWatched(Map.of("XDG_CACHE_HOME", "/proc/self", "HOME", "/proc/self"), tmp);

        assertEquals(List.of(), result.executed(), "processes started: " + result.executed());
        assertNoDriverExtraction(tmp);
    }

    @Test
    void aHomeThatDoesNotExistIsNotCreatedAndNoProcessStarts() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path home = dir.resolve("nonexistent");
        Map<String, String> environment = new java.util.HashMap<>(Map.of("HOME", home.toString()));
        Result result = readWatched(environment, tmp);

        assertFalse(Files.exists(home), "HOME was created");
        assertEquals(List.of(), result.executed(), "processes started: " + result.executed());
        assertNoDriverExtraction(tmp);
    }

    private record Result(List<String> executed) {
    }

    /** Runs a read in a child JVM under {@code strace -f -e trace=execve}; the execve calls after the JVM's own. */
    private Result readWatched(Map<String, String> environment, Path tmp) throws Exception {
        Assumptions.assumeTrue(onPath("strace"), "strace is not installed: cannot watch for started processes");
        Path registry = ScratchRegistry.migratedIn(dir);
        Path trace = dir.resolve("trace");
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=execve", "-o",
                trace.toString()));
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                NoProcessNoWriteMain.class.getName(), registry.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("XDG_CACHE_HOME");
        builder.environment().putAll(environment);
        Process child = builder.start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(180, TimeUnit.SECONDS), "finished");
        Assumptions.assumeTrue(!output.contains("PTRACE_TRACEME") && !output.contains("ptrace"),
                "strace cannot trace here: " + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("readable"), output);
        assertFalse(output.contains("not cached"), "the fallback line: " + output);
        List<String> executed = Files.readAllLines(trace).stream()
                .filter(line -> line.contains("execve(") && !line.contains("= -1 "))
                .toList();
        // The first successful execve is strace starting the JVM itself; the launcher may try PATH entries first.
        List<String> others = executed.isEmpty() ? List.of() : executed.subList(1, executed.size());
        return new Result(others);
    }

    /** The driver's own copy would be named sqlite-<version>-...-libsqlitejdbc.so in the temp folder. */
    private static void assertNoDriverExtraction(Path tmp) throws IOException {
        try (var names = Files.list(tmp)) {
            List<String> extracted = names.map(path -> path.getFileName().toString())
                    .filter(name -> name.startsWith("sqlite-")).toList();
            assertEquals(List.of(), extracted);
        }
    }

    private static boolean onPath(String program) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
                return true;
            }
        }
        return false;
    }
}
