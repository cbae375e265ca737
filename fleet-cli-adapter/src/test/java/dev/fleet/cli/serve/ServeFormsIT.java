package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Roster;
import dev.fleet.observer.ProcessObservers;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way the program accepts of running {@code serve} is one the default server process patterns
 * see, or one {@code serve} refuses: a sixth member started from a renamed jar, from an {@code @}-file
 * or by the slash-spelled main class must never be invisible to the gate. Real jar, real processes.
 */
@EnabledOnOs(OS.LINUX)
class ServeFormsIT {

    private static final Duration LIMIT = Duration.ofMinutes(2);

    @TempDir
    Path scratch;

    private Path registry() {
        return scratch.resolve("state/control_plane.sqlite3");
    }

    private List<String> serveArguments() {
        return List.of("serve", "--profile", "prgs-author", "--registry", registry().toString(),
                "--repository-root", TestFleets.repository(registry()).toString());
    }

    /** {@code java -cp fleet.jar dev/fleet/cli/FleetCli serve ...}: the java launcher takes slashes too. */
    @Test
    void theMainClassSpelledWithSlashesServesAndIsSeenAsAServer() throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(FleetJar.javaBinary(), "-cp", FleetJar.JAR.toString(),
                "dev/fleet/cli/FleetCli"));
        command.addAll(serveArguments());
        try (ServeProcess server = ServeProcess.start(command, "prgs-author", Map.of())) {
            assertEquals(1, TestFleets.awaitRunningRows(registry(), 1).size());
            long pid = server.process().pid();
            ObservedProcess seen = ProcessObservers.forThisPlatform()
                    .observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(pid)).processes().stream()
                    .filter(process -> process.pid() == pid).findFirst().orElseThrow();
            assertTrue(seen.matchesServer(), "the default patterns miss " + seen.commandLine());
            server.closeStdinAndDrain();
        }
    }

    /** {@code java -jar fleet-copy.jar serve ...}: no default pattern names that jar, so serve refuses. */
    @Test
    void aRenamedJarIsRefused() throws Exception {
        Path copy = Files.copy(FleetJar.JAR, scratch.resolve("fleet-copy.jar"));
        List<String> arguments = new java.util.ArrayList<>(List.of("-jar", copy.toString()));
        arguments.addAll(serveArguments());

        assertRefused(FleetJar.runJava(LIMIT, Map.of(), arguments));
    }

    /** {@code java @argsfile}: the java launcher reads -jar and serve from the file, where no pattern can look. */
    @Test
    void serveInsideTheJavaLaunchersAtFileIsRefused() throws Exception {
        List<String> arguments = new ArrayList<>(List.of("-jar", FleetJar.JAR.toString()));
        arguments.addAll(serveArguments());
        Path argsFile = Files.writeString(scratch.resolve("java.args"), String.join("\n", arguments) + "\n");

        assertRefused(FleetJar.runJava(LIMIT, Map.of(), List.of("@" + argsFile)));
    }

    /**
     * {@code java -jar fleet.jar @argsfile}: fleet reads no argument file (where no pattern could see serve), so
     * the argument is an unknown verb, and nothing is served nor registered.
     */
    @Test
    void serveInsideAnAtFileIsNoVerb() throws Exception {
        Path argsFile = Files.writeString(scratch.resolve("serve.args"), String.join("\n", serveArguments()) + "\n");

        FleetJar.Run run = FleetJar.runJava(LIMIT, Map.of(), List.of("-jar", FleetJar.JAR.toString(), "@" + argsFile));
        assertEquals(2, run.exitCode(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: Unknown verb '@" + argsFile + "'"), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertEquals("", run.stdout());
        assertNothingRegistered();
    }

    private void assertRefused(FleetJar.Run run) {
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: this server's command line is not one the roster's "
                + "server_process_patterns match"), run.stderr());
        assertTrue(run.stderr().contains("; the patterns: "), "the line names the patterns it was held to: " + run.stderr());
        assertEquals("", run.stdout());
        assertNothingRegistered();
    }

    private void assertNothingRegistered() {
        RegistryRead read = new SqliteRegistryReader(registry()).read(RegistrationStatus.RUNNING);
        assertTrue(!read.readable() || read.rows().isEmpty(), "no row may be registered: " + read);
    }
}
