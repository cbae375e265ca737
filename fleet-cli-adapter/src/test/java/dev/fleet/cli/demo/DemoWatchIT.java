package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.launcher.Launcher;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet demo} followed in the dashboard, as a person does it: started through the {@code ./fleet}
 * launcher from a folder of the checkout, it prints the dashboard's command as that person can paste
 * it there ({@code ../fleet dashboard ...}), which, pasted there, serves the demo's registry; and
 * {@code --pause} holds each step.
 */
class DemoWatchIT {

    private static final Duration DEMO_LIMIT = Duration.ofMinutes(15);
    private static final Duration PAUSE = Duration.ofSeconds(1);
    /** After the hint, and after each of the seven steps (no FLEET_DEMO_POSTGRES, so no eighth). */
    private static final int HOLDS = 8;
    private static final String HELD = "   (holding 1s: --pause)";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theHintRunsPastedWhereTheDemoWasStartedAndEveryStepIsHeld(@TempDir Path dir) throws Exception {
        Path cwd = Launcher.PATH.getParent().resolve("docs");
        long started = System.nanoTime();
        // As typed at a prompt: bash runs a lone command in its own process, naming the script as typed.
        Process demo = start(cwd, "../fleet demo --pause 1s", dir.resolve("demo.err"));
        Process dashboard = null;
        Lines lines = new Lines(demo.getInputStream());
        try {
            String intro = lines.awaitStartingWith("   to watch it live in a browser", dir.resolve("demo.err"));
            String command = lines.awaitStartingWith("     ", dir.resolve("demo.err")).strip();
            assertTrue(intro.contains(" from " + cwd + ","), intro);
            assertTrue(command.startsWith("../fleet dashboard --registry "), command);
            assertTrue(Files.isSameFile(cwd.resolve("../fleet"), Launcher.PATH), command);

            // Pasted as printed, in the same folder, while the demo is held still: the demo's registry's page.
            signal("STOP", demo);
            dashboard = start(cwd, command + " --port 0", dir.resolve("dashboard.err"));
            String page = new Lines(dashboard.getInputStream()).awaitStartingWith("http://",
                    dir.resolve("dashboard.err"));
            JsonNode verdict = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(page).resolve("/verdict")).build(), HttpResponse.BodyHandlers.ofString()).body());
            String registry = command.split(" ")[3];
            assertEquals(registry, verdict.get("observation").get("registry_path").asText(), verdict.toString());
            dashboard.destroy();
            signal("CONT", demo);

            assertTrue(demo.waitFor(Patience.scaled(DEMO_LIMIT).toMillis(), TimeUnit.MILLISECONDS), lines.all());
            long elapsed = System.nanoTime() - started;
            String output = lines.all() + "--- stderr:\n" + Files.readString(dir.resolve("demo.err"));
            assertEquals(0, demo.exitValue(), output);
            assertEquals(HOLDS, lines.all().lines().filter(HELD::equals).count(), output);
            assertTrue(elapsed >= PAUSE.multipliedBy(HOLDS).toNanos(), "each hold lasts the pause\n" + output);
            assertTrue(!lines.all().contains("demo --pause 5s"), "no advice to pause when pausing\n" + output);
        } finally {
            signal("CONT", demo);
            demo.destroyForcibly();
            if (dashboard != null) {
                dashboard.destroyForcibly();
            }
        }
    }

    @Test
    void aPauseThatIsNoDurationOrOutsideZeroToTenMinutesIsAUsageError() {
        for (String pause : List.of("1.5s", "11m", "forever")) {
            FleetJar.Run run = FleetJar.run("demo", "--pause", pause);
            String output = "--pause " + pause + ": exit " + run.exitCode() + "\n" + run.stdout() + run.stderr();
            assertEquals(2, run.exitCode(), output);
            assertEquals(1, run.stderrLines().size(), output);
            assertTrue(run.stderr().contains("--pause"), output);
            assertEquals("", run.stdout(), "nothing started\n" + output);
        }
        assertTrue(FleetJar.run("demo", "--pause", "11m").stderr().contains("--pause must be from 0s to 10m, got 11m"));
        assertTrue(FleetJar.run("demo", "--help").stdout().contains("--pause=DUR"));
    }

    /** {@code bash -c script} in {@code cwd}, as a person's shell there runs it, without the caller's fleet variables. */
    private static Process start(Path cwd, String script, Path stderr) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(cwd.toFile())
                .redirectError(stderr.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        TestFleets.isolate(builder.environment());
        builder.environment().remove(DemoStory.SHARED_REGISTRY_ENV);
        return builder.start();
    }

    private static void signal(String signal, Process process) throws Exception {
        if (process.isAlive()) {
            assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor());
        }
    }

    /** A process's stdout, read line by line on a thread of its own, so that a wait for a line is bounded. */
    private static final class Lines {
        private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        private final StringBuffer all = new StringBuffer();
        private volatile boolean ended;

        Lines(InputStream stream) {
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        all.append(line).append('\n');
                        queue.add(line);
                    }
                } catch (IOException e) {
                    // The process is gone; the wait below says what was seen.
                }
                ended = true;
            }, "demo-watch-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** The next line starting with {@code prefix}, within two minutes on a quiet host. */
        String awaitStartingWith(String prefix, Path stderr) throws Exception {
            long deadline = System.nanoTime() + Patience.scaled(Duration.ofMinutes(2)).toNanos();
            while (System.nanoTime() < deadline) {
                String line = queue.poll(100, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
                if (line == null && ended && queue.isEmpty()) {
                    break;
                }
            }
            throw new AssertionError("no line starting with '" + prefix + "' (" + Patience.describe() + "); stdout:\n"
                    + all + "--- stderr:\n" + Files.readString(stderr));
        }

        String all() {
            return all.toString();
        }
    }
}
