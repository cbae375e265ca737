package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two repositories' fleets on one host wrap the same server command, each with the entries and the
 * patterns {@code mcp-config --update-roster} wrote: each sees a stray copy of its own server and
 * never the other's members. Before the patterns are in the roster, {@code assess} warns that a copy
 * of the wrapped server could not be seen. All through the real jar, real processes and real files.
 */
class TwoFleetsOneServerIT {

    /** The operator's "server", reading its stdin until EOF; its last word is the member's profile. */
    private static final String SERVER = "bash -c 'while read -r line; do :; done' {profile}";

    @TempDir
    Path dir;

    private final List<ServeProcess> members = new ArrayList<>();
    private Process stray;

    @AfterEach
    void stopEverything() {
        members.forEach(ServeProcess::close);
        if (stray != null) {
            stray.destroyForcibly();
        }
    }

    @Test
    void twoFleetsWrappingOneCommandSeeTheirOwnStraysAndNeverEachOther() throws Exception {
        // Names of this run's own (another run on the host wraps the same command), one with a space and
        // one with a dot: unquoted, the second fleet's pattern would find the first one's servers.
        String unique = "t" + ProcessHandle.current().pid() + "x" + System.nanoTime();
        Fleet first = new Fleet(dir.resolve("first"), unique + " author");
        Fleet second = new Fleet(dir.resolve("second"), unique + ".author");
        for (Fleet fleet : List.of(first, second)) {
            members.add(ServeProcess.start(fleet.entry(fleet.configure()), fleet.profile(), Map.of()));
            TestFleets.awaitRunningRows(fleet.registry(), 1);
        }

        FleetJar.Run unseen = first.assess();
        assertEquals(0, unseen.exitCode(), unseen.stdout() + unseen.stderr());
        assertEquals(List.of("fleet: warning: the server gitea-author wraps (bash -c while read -r line; do :; done "
                + first.profile() + ") matches none of the roster's server_process_patterns, so a copy of it started "
                + "without fleet cannot be seen: add its pattern (fleet mcp-config --server-command ... --roster FILE "
                + "--update-roster)"), unseen.stderrLines(), "one line; the exit code is the gate's");

        for (Fleet fleet : List.of(first, second)) {
            fleet.configure("--update-roster");
            FleetJar.Run seen = fleet.assess();
            assertEquals(0, seen.exitCode(), seen.stdout());
            assertEquals("", seen.stderr(), "every wrapped server is found by a pattern now");
        }

        // A copy of the first fleet's server started without fleet, as a client configured by hand would.
        stray = new ProcessBuilder("bash", "-c", "while read -r line; do :; done", first.profile()).start();
        FleetJar.Run closed = first.assess();
        JsonNode verdict = closed.stdoutJson();
        assertEquals(1, closed.exitCode(), closed.stdout());
        assertEquals("unregistered_process", verdict.get("blocked_reason").asText(), closed.stdout());
        assertEquals(List.of(stray.pid()), verdict.get("unregistered_processes").findValues("pid").stream()
                .map(JsonNode::asLong).toList());
        FleetJar.Run apart = second.assess();
        assertEquals(0, apart.exitCode(), "the other fleet never counts the first one's processes: " + apart.stdout());
    }

    /**
     * One fleet: a registry, a roster of one member (its patterns find only the {@code fleet serve} lines
     * naming this registry, as {@link TestFleets} scopes them) and a checkout, in a folder of its own.
     */
    private static final class Fleet {

        private final String profile;
        private final Path registry;
        private final Path roster;

        Fleet(Path folder, String profile) {
            this.profile = profile;
            this.registry = folder.resolve("registry.sqlite3");
            this.roster = TestFleets.roster(registry, "{\"namespace\": \"gitea-author\", \"profile\": \""
                    + profile + "\", \"role\": \"author\"}", "roster.json");
        }

        String profile() {
            return profile;
        }

        Path registry() {
            return registry;
        }

        Path roster() {
            return roster;
        }

        /** {@code mcp-config} for this fleet, wrapping {@link #SERVER}: its one entry's JSON. */
        JsonNode configure(String... more) throws Exception {
            List<String> args = new ArrayList<>(List.of("mcp-config", "--repository-root",
                    TestFleets.repository(registry()).toString(), "--roster", roster().toString(), "--registry",
                    registry().toString(), "--server-command", SERVER));
            args.addAll(List.of(more));
            FleetJar.Run run = FleetJar.run(args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.stderr());
            return run.stdoutJson().get("mcpServers").get("gitea-author");
        }

        /** The command line a client would start for {@code entry}. */
        List<String> entry(JsonNode entry) {
            List<String> command = new ArrayList<>(List.of(entry.get("command").asText()));
            entry.get("args").forEach(arg -> command.add(arg.asText()));
            return command;
        }

        FleetJar.Run assess() {
            return FleetJar.run("assess", "--registry", registry().toString(), "--roster", roster().toString(),
                    "--format", "json");
        }
    }
}
