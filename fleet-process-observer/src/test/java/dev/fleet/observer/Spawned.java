package dev.fleet.observer;

import dev.fleet.testing.MarkerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real child processes for tests. Only test code starts (and, on close, destroys) processes: the
 * observer under test never does. Registered as an extension, it closes after every test, so no
 * test class has to remember to.
 */
final class Spawned implements AutoCloseable, AfterEachCallback {

    private final List<Process> children = new ArrayList<>();

    /** A unique marker for argv[0], so that a pattern finds exactly one process on the host. */
    static String marker() {
        return MarkerProcess.marker();
    }

    /** A valid, unique extra duration for sleep, so the JDK's view (which hides argv[0]) is unique too. */
    static String token() {
        return MarkerProcess.token();
    }

    /** A marked sleep: the process with the unique marker (argv[0]) and token it was started with. */
    record Marked(Process process, String marker, String token) {
        long pid() {
            return process.pid();
        }

        /** Its command line as {@code /proc} shows it. */
        String commandLine() {
            return marker + " 600 " + token;
        }
    }

    /** {@code sleep 600 <token>} under a marker, both fresh and unique on the host. */
    Marked markedSleep() {
        String marker = marker();
        String token = token();
        return new Marked(markedSleep(marker, token), marker, token);
    }

    /** {@code sleep 600 <token>} running under {@code marker} as argv[0] (see {@link MarkerProcess}). */
    Process markedSleep(String marker, String token) {
        MarkerProcess marked = MarkerProcess.start(marker, token);
        children.add(marked.process());
        return marked.process();
    }

    Process sleep() throws IOException, InterruptedException {
        Process process = start("sleep", "600");
        MarkerProcess.awaitCommandLine(process, "sleep\0");
        return process;
    }

    Process start(String... command) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        children.add(process);
        return process;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** Kills every child and reaps it, so no test leaves a process (or a zombie) behind. */
    @Override
    public void close() {
        for (Process child : children) {
            child.destroyForcibly();
        }
        try {
            for (Process child : children) {
                child.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.clear();
    }
}
