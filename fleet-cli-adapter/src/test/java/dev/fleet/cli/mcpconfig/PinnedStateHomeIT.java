package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.JsonRpcProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry a shell's {@code XDG_STATE_HOME} locates is pinned by {@code mcp-config} as {@code --registry}. On a
 * first install its {@code gitea-tools} folder is not made yet: the member a pasted entry starts makes it, as the
 * default location's writer does, where it exited 2 ("directory ... does not exist") and so did every member.
 * A path named elsewhere still needs its folder (a typo leaves none behind).
 */
class PinnedStateHomeIT {

    @TempDir
    Path dir;

    @Test
    void aMemberGivenTheStateHomesRegistryMakesItsFolderOnAFirstInstall() throws Exception {
        Path stateHome = Files.createDirectories(dir.resolve("state"));
        Path registry = stateHome.resolve("gitea-tools").resolve("control_plane.sqlite3");
        // The roster that finds members serving this registry, written beside it, then moved out of the folder.
        Path roster = Files.move(TestFleets.roster(registry), dir.resolve("roster.json"));
        Files.delete(registry.getParent());
        FleetJar.Run config = FleetJar.run(Map.of("XDG_STATE_HOME", stateHome.toString()), "mcp-config",
                "--repository-root", TestFleets.repository(dir.resolve("r.sqlite3")).toString(),
                "--roster", roster.toString());
        assertEquals(0, config.exitCode(), config.stderr());
        JsonNode controller = config.stdoutJson().get("mcpServers").get("gitea-controller");
        List<String> command = new ArrayList<>(List.of(controller.get("command").asText()));
        controller.get("args").forEach(arg -> command.add(arg.asText()));
        assertTrue(command.contains(registry.toString()), "pinned: " + command);
        assertFalse(Files.exists(registry.getParent()), "a first install: no folder yet");

        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment()); // a client's own environment: no XDG_STATE_HOME of the shell's
        try (JsonRpcProcess server = JsonRpcProcess.start(builder, dir.resolve("serve.err"))) {
            JsonNode initialized = server.initialize();
            assertTrue(initialized.path("result").has("serverInfo"), initialized + "\n" + server.stderrText());
            assertEquals("gitea-controller", TestFleets.awaitRunningRows(registry, 1).get(0).namespace());
            server.closeStdin();
            assertTrue(server.awaitExit(Patience.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS), server.stderrText());
            assertEquals(0, server.process().exitValue(), server.stderrText());
        }
    }

    @Test
    void aRegistryNamedElsewhereStillNeedsItsFolder() {
        Path registry = dir.resolve("typo").resolve("control_plane.sqlite3");
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(2, migrate.exitCode(), migrate.stderr());
        assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
        assertFalse(Files.exists(registry.getParent()), "no folder made");
        Path noStateHome = dir.resolve("no-state").resolve("gitea-tools").resolve("control_plane.sqlite3");
        assertEquals(2, FleetJar.run("registry", "migrate", "--registry", noStateHome.toString()).exitCode(),
                "the default shape, but in a state folder that does not exist");
        assertFalse(Files.exists(dir.resolve("no-state")), "no folder made");
    }
}
