package dev.fleet.observer;

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
        return "FLEETMARKER-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    /** A valid, unique extra duration for sleep, so the JDK's view (which hides argv[0]) is unique too. */
    static String token() {
        return "0.000" + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
    }

    /**
     * {@code sleep 600 <token>} running under {@code marker} as argv[0]. bash execs sleep in place,
     * so the pid stays the one returned; this waits until the exec has happened.
     */
    Process markedSleep(String marker, String token) throws IOException, InterruptedException {
        Process process = start("bash", "-c", "exec -a \"$0\" sleep 600 \"$1\"", marker, token);
        awaitCommandLineStart(process, marker + "\0");
        return process;
    }

    Process sleep() throws IOException, InterruptedException {
        Process process = start("sleep", "600");
        awaitCommandLineStart(process, "sleep\0");
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

    /** A wait for the child to be ready, not an assertion on speed: it gives up only after a minute. */
    private static void awaitCommandLineStart(Process process, String prefix) throws InterruptedException {
        Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            try {
                if (new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).startsWith(prefix)) {
                    return;
                }
            } catch (IOException e) {
                // not there yet
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("child " + process.pid() + " never showed " + prefix.trim());
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
