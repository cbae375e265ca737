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

/**
 * Real child processes for tests. Only test code starts (and, on close, destroys) processes: the
 * observer under test never does.
 */
final class Spawned implements AutoCloseable {

    private final List<Process> children = new ArrayList<>();

    /** A unique marker for argv[0], so that a pattern finds exactly one process on the host. */
    static String marker() {
        return MarkerProcess.marker();
    }

    /** A valid, unique extra duration for sleep, so the JDK's view (which hides argv[0]) is unique too. */
    static String token() {
        return MarkerProcess.token();
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
