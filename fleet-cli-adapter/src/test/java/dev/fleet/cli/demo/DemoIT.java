package dev.fleet.cli.demo;

import dev.fleet.cli.launcher.Launcher;
import dev.fleet.cli.testing.DefaultSigint;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.MarkerProcess;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet demo} end to end, its clean-up when interrupted, and its one-line failure. The
 * limits are those of a busy two-core host (the demo then takes minutes instead of 7 s), and every
 * failure message carries the demo's stderr as well as its stdout.
 */
class DemoIT {

    private static final Pattern REGISTRY = Pattern.compile("registry: (\\S+)");
    /** The demo's own waits add up to well under this, however busy the host. */
    private static final Duration DEMO_LIMIT = Duration.ofMinutes(15);

    private static List<ProcessHandle> serversOf(Path registry) {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(registry.toString()))
                .toList();
    }

    private static final Pattern FIRST_CLIENT_SERVER = Pattern.compile(
            "started \\S+, pid (\\d+) \\(cohort demo-client-1, launcher pid \\d+\\)");
    private static final Pattern ORPHAN_STEP = Pattern.compile("ok   the first client's 5 servers: (\\d+) named orphaned by the verdicts since "
            + "\\(orphaned_member, each with the pid to stop(?:: pids ([\\d, ]+))?\\)"
            + "(?:; (\\d+) had already left by (?:itself|themselves): pids ([\\d, ]+))?\\n");

    /**
     * Run as java -jar, the demo names the launcher beside the jar by its absolute path in its dashboard
     * hint (DemoWatchIT runs the launcher), holds nothing unasked, and leaves no registry and no server.
     */
    private static void assertHintedAndLeftNothing(String stdout, String output) {
        Path registry = registryIn(stdout);
        assertTrue(stdout.contains("\n     " + Launcher.PATH + " dashboard --registry " + registry + " --roster "
                + registry.resolveSibling("roster.json") + "\n"), "the one command that shows the demo's fleet\n" + output);
        assertTrue(stdout.contains("(" + Launcher.PATH + " demo --pause 5s holds each step"), output);
        assertFalse(stdout.contains("(holding"), "no pause asked, none held\n" + output);
        assertFalse(Files.exists(registry.getParent()), "the temporary registry is removed\n" + output);
        assertEquals(List.of(), serversOf(registry), output);
    }

    private static Path registryIn(String output) {
        Matcher matcher = REGISTRY.matcher(output);
        assertTrue(matcher.find(), output);
        return Path.of(matcher.group(1));
    }

    private static String both(FleetJar.Run run) {
        return "exit " + run.exitCode() + "\n--- stdout:\n" + run.stdout() + "--- stderr:\n" + run.stderr();
    }

    @Test
    void tellsTheWholeStoryAndCleansUpWhateverTheEnvironmentAndTheHostHold(@TempDir Path dir) throws Exception {
        // A foreign roster and cohort in the environment, and another fleet server on this host,
        // must not leak into the demo's own fleet.
        Path foreignRoster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": \"r\", "
                + "\"org\": \"o\", \"repo\": \"p\"}, \"members\": [{\"namespace\": \"n\", \"profile\": \"p\", "
                + "\"role\": \"r\"}]}");
        FleetJar.Run run;
        try (MarkerProcess otherFleetsServer = MarkerProcess.lookingLikeAServer()) {
            assertTrue(otherFleetsServer.process().isAlive());
            run = FleetJar.run(DEMO_LIMIT, List.of(), Map.of("FLEET_ROSTER", foreignRoster.toString(),
                    "GITEA_MCP_COHORT_ID", "foreign"), "demo");
        }

        String output = both(run);
        assertEquals(0, run.exitCode(), output);
        assertTrue(run.stdout().contains("gate SATISFIED, 5 running of 5 expected"), output);
        assertTrue(run.stdout().contains("! duplicate_member"), output);
        assertTrue(run.stdout().contains("! cohort_split"), output);
        assertTrue(run.stdout().contains("ok   the controller's digest equals the reconciler's"), output);
        assertTrue(run.stdout().contains("ok   the subscribed client was notified that the verdict changed"), output);
        assertTrue(run.stdout().contains("ok   no orphan while the client lives"), output);
        assertEveryServerOfTheGoneClientNamedOrphanedOrGone(run.stdout(), output);
        assertTrue(run.stdout().contains("ok   the first client's five rows marked stopped by their servers"), output);
        assertTrue(run.stdout().contains("ok   every server marked its row stopped, and every process exited 0"),
                output);
        assertFalse(run.stdout().contains("FAIL"), output);
        assertTrue(run.stdout().endsWith("demo: every expected verdict was seen\n"), output);
        assertTrue(run.stdout().contains("your own MCP servers become members unchanged: fleet serve --profile NAME "
                + "-- COMMAND"), output);
        assertHintedAndLeftNothing(run.stdout(), output);
    }

    /**
     * Step 5 accounts for each of the five servers the first client started (the "started" lines with its
     * cohort): each named orphaned, or gone by itself before a verdict came round, and no other pid.
     */
    private static void assertEveryServerOfTheGoneClientNamedOrphanedOrGone(String stdout, String output) {
        Set<String> firstClient = new TreeSet<>();
        Matcher started = FIRST_CLIENT_SERVER.matcher(stdout);
        while (started.find()) {
            firstClient.add(started.group(1));
        }
        assertEquals(5, firstClient.size(), output);
        Matcher step = ORPHAN_STEP.matcher(stdout);
        assertTrue(step.find(), output);
        Set<String> named = pids(step.group(2));
        Set<String> left = pids(step.group(4));
        assertEquals(Integer.parseInt(step.group(1)), named.size(), output);
        assertEquals(step.group(3) == null ? 0 : Integer.parseInt(step.group(3)), left.size(), output);
        Set<String> accounted = new TreeSet<>(named);
        accounted.addAll(left);
        assertEquals(firstClient, accounted, output);
        assertEquals(5, named.size() + left.size(), "no pid both named and gone\n" + output);
        if (!named.isEmpty()) {
            assertTrue(stdout.contains("! orphaned_member"), output);
            assertTrue(stdout.contains("(orphan)"), output);
        }
    }

    private static Set<String> pids(String list) {
        return list == null ? Set.of() : new TreeSet<>(List.of(list.split(", ")));
    }

    @Test
    void aDemoThatCannotGoOnSaysWhyInOneLineExitsOneAndCleansUp() {
        // A wait of 1 ms runs out at the first handshake, as 120 s would on a host too busy for the demo.
        FleetJar.Run run = FleetJar.run(DEMO_LIMIT, List.of("-Dfleet.demo.timeoutMillis=1"), Map.of(), "demo");

        String output = both(run);
        assertEquals(1, run.exitCode(), output);
        List<String> lines = run.stderrLines();
        assertEquals(1, lines.size(), output);
        assertTrue(lines.get(0).matches("fleet demo: step 1: the \\w+ \\(pid \\d+\\) did not complete the MCP "
                + "handshake within 0\\.001 s .*; its servers are stopped and its temporary registry is removed"),
                output);
        assertHintedAndLeftNothing(run.stdout(), output);
    }

    @ParameterizedTest
    @ValueSource(strings = {"INT", "TERM"})
    void anInterruptedDemoSaysSoAndLeavesNoServerAndNoRegistryBehind(String signal, @TempDir Path dir)
            throws Exception {
        Path stderr = dir.resolve("demo.err");
        ProcessBuilder builder = new ProcessBuilder(DefaultSigint.command(
                List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "demo")))
                .redirectError(stderr.toFile());
        TestFleets.isolate(builder.environment());
        Process demo = builder.start();
        try {
            StringBuilder seen = new StringBuilder();
            // Read on another thread, so that a demo that never gets there cannot hang the test.
            CompletableFuture<Path> started = CompletableFuture.supplyAsync(() -> {
                Path registry = null;
                try {
                    BufferedReader out = new BufferedReader(
                            new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        synchronized (seen) {
                            seen.append(line).append('\n');
                        }
                        if (registry == null && REGISTRY.matcher(line).find()) {
                            registry = registryIn(line);
                        }
                        if (line.contains("ok   five rows registered")) {
                            return registry;
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return null;
            });
            Path registry;
            try {
                registry = started.get(DEMO_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                registry = null;
            }
            String context = "--- stdout:\n" + seen + "--- stderr:\n" + Files.readString(stderr);
            assertTrue(registry != null && !serversOf(registry).isEmpty(), "the demo's servers are running\n"
                    + context);

            // The signal must reach the demo, not a disposition inherited from whoever ran the build.
            DefaultSigint.requireCaught(demo.toHandle(), context);

            // Ctrl-C or a SIGTERM: the demo's shutdown hook cleans up and says so.
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(demo.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            boolean exited = demo.waitFor(2, TimeUnit.MINUTES);
            for (int attempt = 0; attempt < 100 && !serversOf(registry).isEmpty(); attempt++) {
                Thread.sleep(100);
            }
            context = "--- stdout:\n" + seen + "--- stderr:\n" + Files.readString(stderr);
            assertTrue(exited, "the demo did not exit within 2 minutes of SIG" + signal + "\n" + context);
            assertEquals(signal.equals("INT") ? 130 : 143, demo.exitValue(), context);
            assertEquals(List.of("fleet demo: interrupted; its servers are stopped and its temporary registry removed"),
                    Files.readAllLines(stderr).stream().filter(line -> line.contains("interrupted")).toList(), context);
            assertEquals(List.of(), serversOf(registry), context);
            assertFalse(Files.exists(registry.getParent()), "the temporary registry is removed\n" + context);
        } finally {
            demo.destroyForcibly();
        }
    }
}
