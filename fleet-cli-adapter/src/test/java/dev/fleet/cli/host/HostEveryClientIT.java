package dev.fleet.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real jar reads a temporary HOME holding a configuration of each of the eight kinds the contract
 * lists (§14), each at the path its client keeps it and in its client's own format, each entry with
 * {@link HostHome#SECRET} in its env block. Each entry is a {@code sleep} with seconds of its own, and
 * each runs as a real process this JVM started over pipes (so this JVM is its client, of no known
 * kind): the file a reported server names as its {@code config_file} is a file the jar read.
 */
class HostEveryClientIT {

    @TempDir
    Path dir;

    private HostHome home;
    private final TestProcesses processes = new TestProcesses();
    /** Each configured file, by its entry's name. */
    private final Map<String, Path> files = new TreeMap<>();
    /** Each entry's argv, by its name. */
    private final Map<String, List<String>> argvs = new TreeMap<>();
    /** Each entry's running server, by its name. */
    private final Map<String, Long> pids = new TreeMap<>();

    @BeforeEach
    void eightConfigurations() throws IOException {
        home = HostHome.create(dir);
        long seconds = ThreadLocalRandom.current().nextLong(10_000_000, 99_999_990);
        files.put("claude-code-srv", home.claude(entry("claude-code-srv", seconds)));
        files.put("claude-desktop-srv", home.claudeDesktop(entry("claude-desktop-srv", seconds + 1)));
        files.put("cursor-srv", home.cursor(entry("cursor-srv", seconds + 2)));
        files.put("vscode-srv", home.vscode(entry("vscode-srv", seconds + 3)));
        files.put("codex-srv", home.codex(entry("codex-srv", seconds + 4)));
        files.put("zed-srv", home.zed(entry("zed-srv", seconds + 5)));
        files.put("gemini-srv", home.gemini(entry("gemini-srv", seconds + 6)));
        files.put("goose-srv", home.goose(entry("goose-srv", seconds + 7)));
    }

    @AfterEach
    void endEveryProcess() throws Exception {
        processes.close();
    }

    @Test
    void everyKindOfFileIsReadAndNoSecretShows() throws Exception {
        startEach(files.keySet());

        HostOutput out = hostUntilAll(files);

        assertEquals(0, out.exitCode(), out.toString());
        assertEquals(0, out.json().get("warnings").size(), out.toString());
        for (Map.Entry<String, Long> server : pids.entrySet()) {
            JsonNode reported = out.server(server.getValue());
            assertEquals("current", reported.get("state").asText(), out.toString());
            assertEquals(ProcessHandle.current().pid(), reported.get("client_pid").asLong(), "this JVM is its client");
        }
        assertNoSecret(out);
    }

    @Test
    void aBrokenFileOfOneKindIsOneWarningAndTheOthersAreStillRead() throws Exception {
        // Broken where the secret stands: a parser's message quoting the text it failed on would show it.
        Path goose = home.write(".config/goose/config.yaml", "extensions:\n  goose-srv: {type: stdio, cmd: sleep,"
                + " envs: {API_TOKEN: " + HostHome.SECRET + "\n");
        Map<String, Path> others = new TreeMap<>(files);
        others.remove("goose-srv");
        startEach(files.keySet()); // goose's server runs too, but no file the jar read names it

        HostOutput json = hostUntilAll(others);

        assertEquals(0, json.exitCode(), json.toString());
        assertEquals(1, json.json().get("warnings").size(), json.toString());
        assertTrue(json.json().get("warnings").get(0).asText().contains(goose.toString()), json.toString());
        assertEquals("absent", json.state(pids.get("goose-srv")), json.toString());
        assertNoSecret(json);
        HostOutput text = home.host();
        assertEquals(0, text.exitCode(), text.toString());
        assertEquals(1, text.run().stderrLines().size(), text.toString());
        assertTrue(text.run().stderr().startsWith("fleet: warning: ") && text.run().stderr().contains(goose.toString()),
                text.toString());
        others.keySet().forEach(name -> assertTrue(text.run().stdout().contains(name), name + ": " + text));
        assertNoSecret(text);
    }

    /** One entry {@code name}: {@code sleep 600.SECONDS}, recognisable and no other test's. */
    private Map<String, List<String>> entry(String name, long seconds) {
        argvs.put(name, List.of("sleep", "600." + seconds));
        return Map.of(name, argvs.get(name));
    }

    /** Starts each named entry's argv as a client does: a child whose stdin and stdout are pipes this JVM holds. */
    private void startEach(Iterable<String> names) throws IOException {
        for (String name : names) {
            Process server = new ProcessBuilder(argvs.get(name)).start();
            processes.add(server);
            pids.put(name, server.pid());
        }
    }

    /**
     * {@code fleet host --format json} once each of {@code expected}'s servers is reported under its own
     * name and file (a minute on a quiet host, scaled: a process takes a moment to show its argv).
     */
    private HostOutput hostUntilAll(Map<String, Path> expected) throws InterruptedException {
        Map<String, String> wanted = new TreeMap<>();
        expected.forEach((name, file) -> wanted.put(name, file.toString()));
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        HostOutput out = home.host("--format", "json");
        while (!reported(out, expected.keySet()).equals(wanted) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            out = home.host("--format", "json");
        }
        assertEquals(wanted, reported(out, expected.keySet()), "each server under its own name and file ("
                + Patience.describe() + "): " + out);
        return out;
    }

    /** The name and config_file reported for each of {@code names}' servers, by name. */
    private Map<String, String> reported(HostOutput out, Set<String> names) {
        Map<String, String> seen = new TreeMap<>();
        for (String name : names) {
            out.serverHolding(pids.get(name)).ifPresent(server ->
                    seen.put(server.get("name").asText(), server.get("config_file").asText()));
        }
        return seen;
    }

    private static void assertNoSecret(HostOutput out) {
        assertFalse(out.run().stdout().contains(HostHome.SECRET), "no env value on stdout: " + out);
        assertFalse(out.run().stderr().contains(HostHome.SECRET), "no env value on stderr: " + out);
    }
}
