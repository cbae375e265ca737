package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.Python3;
import dev.fleet.cli.testing.TestFleets;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An answer that could not be written is no answer: never exit 0 (or 1, a "no") into a full disk. Not
 * even a watch's, whose quiet end is for a reader that has gone (a pipe or socket), never a full disk.
 */
class OutputFailureIT {

    private static final Path NONBLOCKING_STDOUT = Path.of("src/test/python/nonblocking_stdout.py").toAbsolutePath();

    @ParameterizedTest
    @ValueSource(strings = {"assess --format json", "assess", "registry list --format json", "registry list",
        "processes --format json", "processes", "roster", "roster --format json", "mcp-config", "completion bash",
        "--version", "--help", "registry migrate", "watch", "watch --format jsonl", "wait --for gate --timeout 0s",
        "host"})
    void aVerbWhoseAnswerCannotBeWrittenSaysSoInOneLine(String verb, @TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", registry.toString()).exitCode());
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString()));
        command.addAll(List.of(verb.split(" ")));
        if (verb.startsWith("assess") || verb.startsWith("registry") || verb.startsWith("watch")
                || verb.startsWith("wait")) {
            command.addAll(List.of("--registry", registry.toString()));
        }
        if (verb.equals("mcp-config")) {
            command.addAll(List.of("--repository-root", TestFleets.repository(registry).toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(new File("/dev/full"))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        TestFleets.isolate(builder.environment());
        builder.environment().put("XDG_STATE_HOME", dir.toString());
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));

        assertEquals(74, process.exitValue(), stderr);
        assertEquals("fleet: could not write the answer to standard output: No space left on device\n", stderr);
        assertTrue(Files.isRegularFile(registry));
        assertHelpLists74(verb);
    }

    /** The verbs that print as they go, and exit 74 too once stdout fails (the dashboard's address line, the demo's story). */
    @ParameterizedTest
    @ValueSource(strings = {"dashboard", "demo"})
    void aVerbThatPrintsAsItGoesListsExitCode74(String verb) {
        assertHelpLists74(verb);
    }

    /** The verb's own help says so: a script reading 'fleet wait --help' met a 74 it did not list. */
    private static void assertHelpLists74(String verb) {
        List<String> help = new ArrayList<>();
        for (String word : verb.split(" ")) {
            if (word.startsWith("-") || word.equals("bash")) {
                break;
            }
            help.add(word);
        }
        help.add("--help");
        FleetJar.Run run = FleetJar.run(help.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().lines().anyMatch(line -> line.matches("  74 +\\S.*")),
                "fleet " + String.join(" ", help) + " lists exit code 74:\n" + run.stdout());
    }

    /**
     * A stdout another process made non-blocking (a Node parent's, inherited), full for a while, delays the answer
     * as a blocking one would, and loses none of it: before, the first refused write (EAGAIN) ended the verb with
     * 74, its answer cut.
     */
    @ParameterizedTest
    @ValueSource(strings = {"completion bash", "roster --format json", "--help"})
    void aStdoutFullForAWhileDelaysTheAnswerAndLosesNone(String verb) throws Exception {
        Python3.require("the non-blocking stdout's test");
        List<String> jar = new ArrayList<>(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString()));
        jar.addAll(List.of(verb.split(" ")));
        List<String> command = new ArrayList<>(List.of("python3", NONBLOCKING_STDOUT.toString(), "2"));
        command.addAll(jar);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        TestFleets.isolate(builder.environment());
        Process process = builder.start();
        byte[] answer = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));

        assertEquals(0, process.exitValue());
        ProcessBuilder plain = new ProcessBuilder(jar).redirectError(ProcessBuilder.Redirect.INHERIT);
        TestFleets.isolate(plain.environment());
        Process direct = plain.start();
        String expected = new String(direct.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(direct.waitFor(120, TimeUnit.SECONDS));
        assertTrue(expected.length() > 100, "the answer is longer than the room the full pipe leaves");
        assertEquals(expected, new String(answer, StandardCharsets.UTF_8));
    }

    /**
     * A watch writing into a named FIFO whose reader has gone ends quietly with 0, as into a pipe: the
     * descriptor is what says a reader went away, whether the pipe has a name or not.
     */
    @Test
    void aWatchWhoseNamedFifoReaderLeftEndsQuietly(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", registry.toString()).exitCode());
        Path fifo = dir.resolve("watch.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        CompletableFuture<FileInputStream> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return new FileInputStream(fifo.toFile()); // opens once the watch's end is open
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ProcessBuilder builder = new ProcessBuilder(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "watch",
                "--registry", registry.toString()).redirectOutput(fifo.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        TestFleets.isolate(builder.environment());
        Process watch = builder.start();
        reader.get(60, TimeUnit.SECONDS).close(); // the reader leaves before the first verdict is written
        String stderr = new String(watch.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(watch.waitFor(60, TimeUnit.SECONDS), "the watch must end once its reader has gone");

        assertEquals(0, watch.exitValue(), stderr);
        assertEquals("", stderr);
    }
}
