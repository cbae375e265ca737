package dev.fleet.cli.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.jar.RunningJar;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the real packaged jar as a subprocess, the way an operator does. */
public final class FleetJar {

    public static final Path JAR = Path.of(System.getProperty("fleet.jar", "target/fleet.jar")).toAbsolutePath();
    /** The package step's class-data archive (trained on a serve, for every verb), by and for this test's java. */
    public static final Path ARCHIVE = JAR.resolveSibling("fleet-" + System.getProperty("java.version") + ".jsa");

    private FleetJar() {
    }

    /**
     * That {@code -Xlog:class+load} wrote to {@code classLog} that the class {@code name} was loaded
     * once, and mapped from the class-data archive rather than read from a jar.
     */
    public static void assertMappedFromTheArchive(Path classLog, String name) throws IOException {
        List<String> loaded = Files.readAllLines(classLog).stream().filter(line -> line.contains(" " + name + " ")).toList();
        assertEquals(1, loaded.size(), name + " loaded once: " + loaded);
        assertTrue(loaded.get(0).contains("source: shared objects file"), loaded.get(0));
    }

    public record Run(int exitCode, String stdout, String stderr) {
        private static final ObjectMapper JSON = new ObjectMapper();

        public List<String> stderrLines() {
            return stderr.lines().toList();
        }

        /** Stdout read as the one JSON document a {@code --format json} verb prints. */
        public JsonNode stdoutJson() throws JsonProcessingException {
            return JSON.readTree(stdout);
        }
    }

    public static Run run(String... args) {
        return run(Map.of(), args);
    }

    /**
     * Runs {@code fleet args} with {@code env} added to an isolated environment (see
     * {@link TestFleets#isolate}; XDG_STATE_HOME is a fresh folder), in an empty working directory
     * that is no git checkout, as an operator's shell might be.
     */
    public static Run run(Map<String, String> env, String... args) {
        return run(Duration.ofSeconds(60), List.of(), env, args);
    }

    /**
     * {@link #run(Map, String...)} with JVM options of the test's own, and a longer or shorter limit
     * (for a quiet host: {@link Patience} scales it for this one).
     */
    public static Run run(Duration quietLimit, List<String> jvmOptions, Map<String, String> env, String... args) {
        // As users get it: the launcher's guard sends what the JVM itself says to stderr (a JVM warning
        // on stdout once broke a test's JSON under load); the test's own -Xlog options come after it.
        List<String> javaArguments = new ArrayList<>(RunningJar.SERVING_JVM_OPTIONS);
        javaArguments.addAll(jvmOptions);
        javaArguments.addAll(List.of("-jar", JAR.toString()));
        javaArguments.addAll(List.of(args));
        return runJava(quietLimit, env, javaArguments);
    }

    /** {@code java javaArguments} (the jar named however the test likes), isolated as {@link #run(Map, String...)}. */
    public static Run runJava(Duration quietLimit, Map<String, String> env, List<String> javaArguments) {
        Duration limit = Patience.scaled(quietLimit);
        assertTrue(Files.isRegularFile(JAR), "the CLI tests need the packaged jar at " + JAR);
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        command.addAll(javaArguments);
        String[] args = javaArguments.toArray(String[]::new);
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        try {
            // A default registry path, should a command fall back to one, is never the real one.
            builder.environment().put("XDG_STATE_HOME", Files.createTempDirectory("fleet-state").toString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        builder.environment().putAll(env);
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        try {
            builder.directory(Files.createTempDirectory("fleet-cwd").toFile());
            Path out = Files.createTempFile("fleet-out", ".txt");
            Path err = Files.createTempFile("fleet-err", ".txt");
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process process = builder.start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("fleet " + String.join(" ", args) + " did not finish within "
                        + limit.toSeconds() + " s (" + Patience.describe() + "); stderr so far:\n" + Files.readString(err, StandardCharsets.UTF_8));
            }
            Run run = new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return run;
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
