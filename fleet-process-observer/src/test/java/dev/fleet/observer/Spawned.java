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

    /**
     * A tree three processes deep: {@code sh} starts {@code bash}, which starts {@code sleep 600 <token>}
     * under {@code marker} as argv[0], the only one whose command line holds the marker (it reaches bash in
     * its environment). Returns the sleep's handle once it runs under the marker; {@link #close} kills the
     * whole tree.
     */
    ProcessHandle markedGrandchild(String marker, String token) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c",
                "bash -c '(exec -a \"$FLEET_TEST_ARGV0\" sleep 600 " + token + ") & wait' & wait")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("FLEET_TEST_ARGV0", marker);
        Process shell = builder.start();
        children.add(shell);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            ProcessHandle found = shell.descendants().filter(handle -> commandLine(handle.pid()).startsWith(marker + "\0"))
                    .findFirst().orElse(null);
            if (found != null) {
                return found;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("the marked grandchild of sh " + shell.pid() + " never started");
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    Process sleep() throws IOException, InterruptedException {
        Process process = start("sleep", "600");
        MarkerProcess.awaitCommandLine(process, "sleep\0");
        return process;
    }

    /** {@code process}, destroyed with the rest. */
    Process track(Process process) {
        children.add(process);
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

    /** Kills every child, and every process below it, and reaps it, so no test leaves a process (or a zombie) behind. */
    @Override
    public void close() {
        for (Process child : children) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
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
