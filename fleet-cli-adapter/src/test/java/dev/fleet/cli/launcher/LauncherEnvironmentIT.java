package dev.fleet.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.JsonRpcProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environments MCP clients, cron and systemd give a server: {@code env -i PATH=/usr/bin:/bin}
 * and a HOME with a non-ASCII name ({@code josé}), so no UTF-8 locale; and the signals such a server
 * may receive. The {@code ./fleet} launcher takes C.UTF-8 for character handling and works; plain
 * {@code java -jar} says in one line what to do (exit 2), never an internal error. Under the launcher,
 * SIGQUIT's thread dump goes to stderr and SIGUSR2 is a clean stop.
 */
class LauncherEnvironmentIT {

    private static final Path LAUNCHER = Launcher.PATH;
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Makes {@code $1/josé} (spelt in octal, so this JVM, whatever its locale, never encodes it) and
     * runs the rest of the arguments in it, with nothing but PATH and that HOME.
     */
    private static final String BARE_ENVIRONMENT = "home=\"$1/jos$(printf '\\303\\251')\"; mkdir -p \"$home\"; "
            + "cd \"$home\"; shift; exec env -i PATH=/usr/bin:/bin HOME=\"$home\" \"$@\"";

    @TempDir
    Path dir;

    @Test
    void javaDashJarWithoutAUtf8LocaleSaysWhatToDoInOneLine() throws Exception {
        // The working directory is that HOME too; serve is given an ASCII repository root so that the
        // registry's location is what it stops at (an unencodable root is refused in one line as well).
        for (List<String> verb : List.of(List.of("assess"),
                List.of("serve", "--profile", "prgs-author", "--repository-root", dir.toString()))) {
            List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString()));
            command.addAll(verb);
            Process process = bare(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));

            assertEquals(2, process.exitValue(), verb + ": " + stderr);
            assertEquals("", stdout);
            assertEquals(1, stderr.lines().count(), stderr);
            assertTrue(stderr.startsWith("fleet: cannot locate the registry: HOME cannot be a path in this locale's "
                    + "charset ("), stderr);
            assertTrue(stderr.contains("LC_ALL=C.UTF-8"), stderr);
        }
    }

    @Test
    void theLauncherAssessesWithANonAsciiHomeAndNoLocale() throws Exception {
        Process process = bare(List.of(LAUNCHER.toString(), "assess", "--format", "json"))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));

        assertEquals(1, process.exitValue(), "the gate is closed (no registry yet), nothing failed: " + stderr);
        JsonNode verdict = JSON.readTree(stdout);
        assertEquals("missing", verdict.path("registry").path("reason").asText(), stdout);
        assertTrue(verdict.path("observation").path("registry_path").asText().endsWith(
                "/jos\u00e9/.local/state/gitea-tools/control_plane.sqlite3"), stdout);
    }

    @Test
    void theLauncherServesWithANonAsciiHomeAndStopsCleanlyOnSigusr2AfterASigquitDump() throws Exception {
        Path stderr = dir.resolve("serve.err");
        try (JsonRpcProcess server = JsonRpcProcess.start(bare(List.of(LAUNCHER.toString(), "serve", "--profile",
                "prgs-author")), stderr)) {
            server.initialize();
            JsonNode context = server.callTool(2, "gitea_get_runtime_context").path("result").path("structuredContent");
            assertEquals("registered", context.path("registration").path("status").asText(), context.toString());

            signal("QUIT", server.pid());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!server.stderrText().contains("Full thread dump")) {
                assertTrue(System.nanoTime() < deadline, "no thread dump on stderr");
                Thread.sleep(100);
            }
            // Every stdout line is checked as JSON-RPC on the way: no dump line reached stdout.
            assertFalse(server.callTool(3, "gitea_get_runtime_context").path("result").path("isError").asBoolean());

            signal("USR2", server.pid());
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "SIGUSR2 ends the server");
            assertEquals(128 + 12, server.process().exitValue(), server.stderrText());
            assertFalse(server.stderrText().contains("A fatal error has been detected"), server.stderrText());
        }
        Process list = bare(List.of(LAUNCHER.toString(), "registry", "list", "--format", "json")).start();
        String rows = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(list.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, list.exitValue(), rows);
        assertTrue(rows.contains("\"status\":\"stopped\"") || rows.contains("\"status\" : \"stopped\""), rows);
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(file -> file.getFileName().toString().startsWith("jos")
                    && hasCrashFile(file)), "no hs_err file");
        }
    }

    /**
     * What the launcher sets for the JVM alone (here {@code _JAVA_SR_SIGNUM}, added, and LC_ALL, replaced
     * by C.UTF-8) it notes, and the member takes back: its wrapped server gets the environment fleet was
     * started with, plus the roster's three variables (docs/CONTRACT.md, A member that wraps your own server).
     */
    @Test
    void aWrappedServerGetsTheEnvironmentTheLauncherWasStartedWith() throws Exception {
        Path seen = dir.resolve("child.env");
        Process member = bare(List.of("env", "LC_ALL=POSIX", LAUNCHER.toString(), "serve", "--profile", "prgs-author",
                "--", "sh", "-c", "env > \"$0.part\" && mv \"$0.part\" \"$0\" && exec cat", seen.toString()))
                .redirectError(dir.resolve("member.err").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(seen)) {
                assertTrue(System.nanoTime() < deadline && member.isAlive(),
                        "the wrapped server wrote its environment: " + Files.readString(dir.resolve("member.err")));
                Thread.sleep(50);
            }
        } finally {
            member.getOutputStream().close();
            assertTrue(member.waitFor(60, TimeUnit.SECONDS));
        }
        List<String> environment = Files.readAllLines(seen, StandardCharsets.UTF_8);
        assertTrue(environment.contains("LC_ALL=POSIX"), environment::toString);
        assertTrue(environment.contains("FLEET_PROFILE=prgs-author"), environment::toString);
        assertTrue(environment.stream().noneMatch(line -> line.startsWith("_JAVA_SR_SIGNUM=")
                || line.startsWith("LC_CTYPE=") || line.startsWith("FLEET_LAUNCHER_")), environment::toString);
    }

    private ProcessBuilder bare(List<String> command) {
        List<String> full = new ArrayList<>(List.of("/bin/sh", "-c", BARE_ENVIRONMENT, "sh", dir.toString()));
        full.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(full);
        TestFleets.isolate(builder.environment());
        return builder;
    }

    private static boolean hasCrashFile(Path folder) {
        try (var files = Files.list(folder)) {
            return files.anyMatch(file -> file.getFileName().toString().startsWith("hs_err"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue());
    }
}
