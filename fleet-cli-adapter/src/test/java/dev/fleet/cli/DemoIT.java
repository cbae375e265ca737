package dev.fleet.cli;

import dev.fleet.testing.MarkerProcess;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fleet demo} end to end, and its clean-up when interrupted. */
class DemoIT {

    private static final Pattern REGISTRY = Pattern.compile("registry: (\\S+)");

    private static List<ProcessHandle> serversOf(Path registry) {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(registry.toString()))
                .toList();
    }

    private static Path registryIn(String output) {
        Matcher matcher = REGISTRY.matcher(output);
        assertTrue(matcher.find(), output);
        return Path.of(matcher.group(1));
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
            run = FleetJar.run(Map.of("FLEET_ROSTER", foreignRoster.toString(), "GITEA_MCP_COHORT_ID", "foreign"),
                    "demo");
        }

        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("gate SATISFIED, 5 running of 5 expected"), run.stdout());
        assertTrue(run.stdout().contains("! duplicate_member"), run.stdout());
        assertTrue(run.stdout().contains("! cohort_split"), run.stdout());
        assertTrue(run.stdout().contains("ok   the controller's digest equals the reconciler's"), run.stdout());
        assertTrue(run.stdout().contains("ok   every server marked its row stopped and exited 0"), run.stdout());
        assertFalse(run.stdout().contains("FAIL"), run.stdout());
        assertTrue(run.stdout().endsWith("demo: every expected verdict was seen\n"), run.stdout());
        Path registry = registryIn(run.stdout());
        assertFalse(Files.exists(registry.getParent()), "the temporary registry is removed");
        assertEquals(List.of(), serversOf(registry));
    }

    @Test
    void anInterruptedDemoLeavesNoServerAndNoRegistryBehind() throws Exception {
        Process demo = new ProcessBuilder(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "demo")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
        Path registry = null;
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (registry == null && REGISTRY.matcher(line).find()) {
                registry = registryIn(line);
            }
            if (line.contains("ok   five rows registered")) {
                break;
            }
        }
        assertTrue(registry != null && !serversOf(registry).isEmpty(), "the demo's servers are running");

        demo.destroy(); // SIGTERM, like Ctrl-C: the demo's shutdown hook cleans up
        assertTrue(demo.waitFor(20, TimeUnit.SECONDS));
        for (int attempt = 0; attempt < 100 && !serversOf(registry).isEmpty(); attempt++) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), serversOf(registry));
        assertFalse(Files.exists(registry.getParent()), "the temporary registry is removed");
    }
}
