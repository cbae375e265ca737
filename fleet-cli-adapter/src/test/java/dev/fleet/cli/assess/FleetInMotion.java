package dev.fleet.cli.assess;

import dev.fleet.cli.jar.RunningJar;
import dev.fleet.cli.testing.DefaultSigint;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A long-running {@code fleet} verb ({@code watch}, {@code wait}) from the packaged jar, in the
 * background, its stdout and stderr in files the test reads while it runs.
 */
record FleetInMotion(Process process, Path stdoutFile, Path stderrFile) implements AutoCloseable {

    /**
     * {@code fleet args}, run as {@link FleetJar} runs it (isolated environment, no stdin), with
     * SIGINT at its default disposition as a foreground job has it ({@link DefaultSigint}): a build
     * started in the background ignores SIGINT, and a JVM that inherits that never ends on it.
     */
    static FleetInMotion start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary()));
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-jar", FleetJar.JAR.toString()));
        command.addAll(List.of(args));
        return startCommand(dir, DefaultSigint.command(command));
    }

    /** Any command (a shell pipeline around {@code fleet}), run the same way. */
    static FleetInMotion startCommand(Path dir, List<String> command) throws IOException {
        Path out = Files.createTempFile(dir, "fleet-out", ".txt");
        Path err = Files.createTempFile(dir, "fleet-err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        TestFleets.isolate(builder.environment());
        return new FleetInMotion(builder.start(), out, err);
    }

    /** The command line of {@code fleet args} as {@link #start} runs it, for a shell to run. */
    static String shellCommand(String... args) {
        List<String> words = new ArrayList<>(List.of(FleetJar.javaBinary()));
        words.addAll(RunningJar.SERVING_JVM_OPTIONS);
        words.addAll(List.of("-jar", FleetJar.JAR.toString()));
        words.addAll(List.of(args));
        return String.join(" ", words.stream().map(word -> "'" + word.replace("'", "'\\''") + "'").toList());
    }

    List<String> lines() {
        try {
            return Files.readString(stdoutFile, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    String stdout() {
        return String.join("\n", lines());
    }

    String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Sends {@code signal} (INT, TERM) and returns the exit status, within a patient minute. */
    int signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(process.pid())).inheritIO().start();
        kill.waitFor(30, TimeUnit.SECONDS);
        if (!process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after SIG" + signal + " (" + Patience.describe() + ")");
        }
        return process.exitValue();
    }

    /** Waits for {@code condition} (60 s on a quiet host, scaled); fails with {@code what} and the output. */
    void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " (" + Patience.describe() + ")\nstdout:\n" + stdout() + "\nstderr:\n"
                        + stderr());
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(stdoutFile);
            Files.deleteIfExists(stderrFile);
        } catch (IOException | InterruptedException e) {
            // temporary files of a test; nothing to do
        }
    }
}
