package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.JsonRpcProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Honest warnings and refusals: a root that is no git checkout is said on stderr, never stdout; a
 * named registry's directory must exist; a directory that cannot be made is refused with its cause.
 */
class WarningsIT {

    @TempDir
    Path dir;

    @Test
    void serveWarnsInOneStderrLineWhenTheRootIsNoGitCheckoutAndStdoutStaysProtocol() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path plain = Files.createDirectories(dir.resolve("plain"));
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(),
                "serve", "--profile", "prgs-author", "--registry", registry.toString(), "--roster",
                TestFleets.roster(registry).toString(), "--repository-root", plain.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        try (JsonRpcProcess server = JsonRpcProcess.start(builder, dir.resolve("serve.err"))) {
            assertTrue(server.initialize().path("result").has("serverInfo"));
            assertEquals(null, TestFleets.awaitRunningRows(registry, 1).get(0).startupHead());
            server.closeStdin();
            assertTrue(server.awaitExit(60, TimeUnit.SECONDS), server.stderrText());
            List<String> warnings = server.stderrText().lines().filter(line -> line.contains("warning")).toList();
            assertEquals(List.of("fleet: warning: --repository-root " + plain + " is not a git checkout with a "
                    + "commit; this server reports startup_head null, so the fleet's revision is unknown"), warnings);
        }
    }

    @Test
    void aNamedRegistryWhoseDirectoryIsMissingIsRefusedByEveryWriterAndNothingIsCreated() {
        Path registry = dir.resolve("no-such-dir/x.sqlite3");
        String refusal = "fleet: registry " + registry + ": directory " + registry.getParent() + " does not exist "
                + "(only the default location's directories are created; create it or choose another path)\n";

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        FleetJar.Run fromEnvironment = FleetJar.run(Map.of("FLEET_REGISTRY", registry.toString()),
                "registry", "migrate");
        FleetJar.Run serve = FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString());

        for (FleetJar.Run run : List.of(migrate, fromEnvironment, serve)) {
            assertEquals(2, run.exitCode(), run.stderr());
            // The path the environment chose is named as such: the operator may not know it is set.
            assertEquals(run == fromEnvironment ? refusal.replace("\n", " (from $FLEET_REGISTRY)\n") : refusal,
                    run.stderr());
            assertEquals("", run.stdout());
        }
        assertFalse(Files.exists(registry.getParent()), "nothing was created");
    }

    @Test
    void aDefaultLocationThatCannotBeCreatedNamesTheCause() throws Exception {
        // Root may write anywhere, so the state folder is made impossible instead: a file is in its way.
        Path inTheWay = Files.writeString(dir.resolve("state-home"), "");
        Path directory = inTheWay.resolve("gitea-tools");

        FleetJar.Run migrate = FleetJar.run(Map.of("XDG_STATE_HOME", inTheWay.toString()), "registry", "migrate");
        FleetJar.Run serve = FleetJar.run(Map.of("XDG_STATE_HOME", inTheWay.toString()), "serve", "--profile",
                "prgs-author");

        for (FleetJar.Run run : List.of(migrate, serve)) {
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals("fleet: registry " + directory.resolve("control_plane.sqlite3") + ": cannot create directory "
                    + directory + ": " + directory + ": Not a directory\n", run.stderr());
        }
    }
}
