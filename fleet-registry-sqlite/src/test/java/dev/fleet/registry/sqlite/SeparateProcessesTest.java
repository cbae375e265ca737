package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry as real servers use it: each in a JVM of its own. Liquibase prints its change sets
 * and summary to stdout, and jOOQ its logo and a version note to stderr, once per JVM, so silence
 * can only be checked in a fresh one; and servers started together race to migrate a fresh file.
 */
class SeparateProcessesTest {

    @TempDir
    Path dir;

    @Test
    void migratingRegisteringAndReadingPrintNothingOnStdoutOrStderr() throws Exception {
        Path file = ScratchRegistry.in(dir);

        Child child = Child.start(dir, file, 48000, 0);

        child.assertSucceededSilently();
    }

    @Test
    void fiveServersStartedTogetherOnAFreshFileAllRegister() throws Exception {
        Path file = dir.resolve("state/control_plane.sqlite3");
        List<Child> children = new ArrayList<>();
        for (int member = 0; member < 5; member++) {
            children.add(Child.start(dir, file, 48100 + member, member));
        }

        for (Child child : children) {
            child.assertSucceededSilently();
        }
        assertEquals(List.of(48100L, 48101L, 48102L, 48103L, 48104L), new SqliteRegistryReader(file).readAll()
                .rows().stream().map(row -> row.pid()).sorted().toList());
        assertEquals(7, RawSqlite.userVersion(file));
    }

    private record Child(Process process, Path out, Path err) {

        static Child start(Path dir, Path file, long pid, int member) throws IOException {
            Path out = dir.resolve("stdout-" + pid + ".txt");
            Path err = dir.resolve("stderr-" + pid + ".txt");
            ProcessBuilder builder = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    QuietRegistryMain.class.getName(), file.toString(), Long.toString(pid),
                    Integer.toString(member)))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            // The JVM itself would announce these on stderr, which must otherwise stay silent.
            builder.environment().keySet().removeAll(List.of("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"));
            Process process = builder.start();
            return new Child(process, out, err);
        }

        void assertSucceededSilently() throws InterruptedException {
            Duration limit = Patience.scaled(Duration.ofMinutes(3));
            assertTrue(process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS), "the child JVM finished within "
                    + limit.toSeconds() + " s (" + Patience.describe() + ")");
            assertEquals(0, process.exitValue(), () -> "exit status; stderr: " + read(err));
            assertEquals("", read(out), "stdout");
            assertEquals("", read(err), "stderr");
        }

        private static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        }
    }
}
