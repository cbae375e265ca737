package dev.fleet.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.HostShape;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fleet host}'s own behaviour, from the packaged jar: usage errors, the JSON against the schema
 * the jar publishes, the exit codes, hostile names shown safely, and the stop script run by a real
 * {@code sh}. The servers are real processes this test starts as an MCP client does (a child whose
 * stdin and stdout are pipes), so this JVM is their client; the configuration is a real Claude Code
 * file in a temporary HOME. (The scenarios of every state, with real clients, are {@code dev.fleet.cli.host}'s.)
 */
class HostIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What a server's name may hold that a terminal would obey. */
    private static final String HOSTILE_NAME = "sleeper\u001b[2J\u001b[31mGATE SATISFIED";

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopWhatWasStarted() throws InterruptedException {
        for (Process server : started) {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBadOptionIsExitTwoWithOneLineOnStderr() {
        for (List<String> args : List.of(List.of("host", "--format", "xml"), List.of("host", "--strays", "--bogus"),
                List.of("host", "--config", ""), List.of("host", "stray-argument"),
                List.of("host", "--project", "/nonexistent-fleet-project"), List.of("host", "--project", "/etc/hostname"))) {
            FleetJar.Run run = FleetJar.run(args.toArray(String[]::new));
            assertEquals(2, run.exitCode(), args + ": " + run.stderr());
            assertEquals(1, run.stderrLines().size(), args + ": " + run.stderr());
            assertTrue(run.stderr().startsWith("fleet: "), run.stderr());
            assertEquals("", run.stdout(), args.toString());
        }
    }

    /** A current directory the locale cannot name would read as one without project files: one line, exit 2. */
    @ParameterizedTest
    @CsvSource({"C.UTF-8, '\\377'", "C, '\\303\\251'"}) // a byte no UTF-8 has; an é the C locale cannot say
    void aCurrentDirectoryWhoseNameIsNoTextIsOneUsageLine(String locale, String name, @TempDir Path home)
            throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", "d=\"$1/proj$(printf \"$4\")\" && mkdir \"$d\" && cd \"$d\" "
                + "&& exec \"$2\" -jar \"$3\" host", "sh", home.toString(), FleetJar.javaBinary(), FleetJar.JAR.toString(),
                name);
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(environment(home));
        builder.environment().put("LC_ALL", locale);
        Process host = builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        assertTrue(host.waitFor(Patience.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS), "fleet host ended");
        String stderr = new String(host.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, host.exitValue(), stderr);
        assertEquals("", new String(host.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(stderr.startsWith("fleet: the current directory's name") && stderr.lines().count() == 1, stderr);
    }

    @Test
    void anUnreadableConfigurationIsOneWarningNotAFailure(@TempDir Path home) throws IOException {
        Path broken = Files.writeString(home.resolve("mcp.json"), "{\"mcpServers\": {");
        FleetJar.Run run = FleetJar.run(environment(home), "host", "--config", broken.toString());
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().contains(broken.toString()), run.stderr());
    }

    @Test
    void oneRunningServerIsCurrentAndTheReportFitsThePublishedSchema(@TempDir Path home) throws Exception {
        String seconds = uniqueSeconds();
        configure(home, HOSTILE_NAME, seconds);
        Process server = startServer(seconds);

        FleetJar.Run json = awaitServers(home, server, 1);
        assertEquals(0, json.exitCode(), json.stderr());
        FleetJar.Run schema = FleetJar.run("host", "--schema");
        assertEquals(0, schema.exitCode(), schema.stderr());
        ValidationResponse valid = HostShape.validate(schema.stdout(), json.stdout());
        assertTrue(valid.valid(), valid.errorMessage() + "\n" + json.stdout());
        JsonNode entry = serverOf(json.stdoutJson(), server.pid());
        assertEquals("current", entry.get("state").asText(), json.stdout());
        assertEquals(HOSTILE_NAME, entry.get("name").asText(), "JSON carries the name as written, escaped");
        assertEquals(ProcessHandle.current().pid(), entry.get("client_pid").asLong(), "this JVM is its client");
        assertEquals(0, json.stdoutJson().get("strays").asInt());

        FleetJar.Run text = FleetJar.run(environment(home), "host");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().contains(String.valueOf(server.pid())), text.stdout());
        assertFalse(text.stdout().contains("\u001b"), "no control character reaches the terminal: " + text.stdout());
        assertTrue(text.stdout().contains("sleeper\\x1b[2J\\x1b[31mGATE SATISFIED"), text.stdout());

        FleetJar.Run strays = FleetJar.run(environment(home), "host", "--strays", "--format", "sh");
        assertEquals(0, strays.exitCode(), strays.stderr());
        assertFalse(strays.stdout().contains(String.valueOf(server.pid())), "no stray, nothing to stop");
    }

    @Test
    void theOlderOfTwoGenerationsIsAStrayAndItsScriptEndsExactlyIt(@TempDir Path home) throws Exception {
        String seconds = uniqueSeconds();
        configure(home, "sleeper", seconds);
        Process older = startServer(seconds);
        Thread.sleep(2000); // two generations, not a duplicate: more than 1 s apart
        Process younger = startServer(seconds);

        FleetJar.Run json = awaitServers(home, younger, 2);
        assertEquals(1, json.exitCode(), json.stderr());
        assertEquals("stale_generation", serverOf(json.stdoutJson(), older.pid()).get("state").asText(), json.stdout());
        assertEquals("current", serverOf(json.stdoutJson(), younger.pid()).get("state").asText(), json.stdout());
        assertEquals(1, json.stdoutJson().get("strays").asInt());

        FleetJar.Run script = FleetJar.run(environment(home), "host", "--strays", "--format", "sh");
        assertEquals(1, script.exitCode(), script.stderr());
        Process sh = new ProcessBuilder("sh").redirectErrorStream(true).start();
        sh.getOutputStream().write(script.stdout().getBytes(StandardCharsets.UTF_8));
        sh.getOutputStream().close();
        String said = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(sh.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS), said);
        assertEquals(0, sh.exitValue(), said + "\n" + script.stdout());

        assertTrue(older.waitFor(Patience.scaled(Duration.ofSeconds(10)).toSeconds(), TimeUnit.SECONDS),
                "the stray ended: " + script.stdout());
        assertTrue(younger.isAlive(), "the current server lives on");
        FleetJar.Run after = FleetJar.run(environment(home), "host", "--format", "json");
        assertEquals(0, after.exitCode(), after.stdout());
    }

    /**
     * A process of the fleet's own is left to {@code fleet assess}, found as its observer finds it (RE2J):
     * a POSIX class the JDK's engine reads otherwise once matched nothing here, and the fleet's own servers
     * were listed as strays with a line that stops them.
     */
    @Test
    void aProcessMatchingTheRostersPatternIsLeftOutAsTheFleetsObserverMatchesIt(@TempDir Path home) throws Exception {
        String seconds = uniqueSeconds();
        configure(home, "sleeper", seconds);
        Process older = startServer(seconds);
        Thread.sleep(2000);
        Process younger = startServer(seconds);
        FleetJar.Run unrostered = awaitServers(home, younger, 2);
        assertEquals(1, unrostered.exitCode(), "without the roster, the older is a stray: " + unrostered.stdout());

        String digits = seconds.substring(seconds.indexOf('.') + 1);
        Path roster = TestFleets.roster(home.resolve("registry.sqlite3"));
        ObjectNode rostered = (ObjectNode) JSON.readTree(roster.toFile());
        rostered.putArray("server_process_patterns").add("^sleep 600[.]" + digits.substring(0, 4) + "[[:digit:]]{"
                + (digits.length() - 4) + "}$");
        JSON.writeValue(roster.toFile(), rostered);
        FleetJar.Run run = FleetJar.run(environment(home), "host", "--format", "json", "--roster", roster.toString());

        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertNull(serverOf(run.stdoutJson(), older.pid()), run.stdout());
        assertNull(serverOf(run.stdoutJson(), younger.pid()), run.stdout());
        assertEquals(0, run.stdoutJson().get("strays").asInt());
    }

    /**
     * The most common entry, {@code npx -y PKG}, run by the real npx: npm titles itself {@code npm exec PKG},
     * leaving npx's own {@code -y} out, and the entry is still found.
     */
    @Test
    void aServerConfiguredAsNpxDashYIsFoundUnderTheTitleNpmGivesIt(@TempDir Path home) throws Exception {
        Path pkg = Files.createDirectories(home.resolve("probe-" + uniqueSeconds().replace('.', '-')));
        Files.writeString(pkg.resolve("package.json"),
                "{\"name\": \"fleet-host-probe\", \"version\": \"1.0.0\", \"bin\": {\"fleet-host-probe\": \"cli.js\"}}");
        Path cli = Files.writeString(pkg.resolve("cli.js"), "#!/usr/bin/env node\nsetInterval(() => {}, 60000);\n");
        assertTrue(cli.toFile().setExecutable(true));
        Files.writeString(home.resolve(".claude.json"), "{\"mcpServers\": {\"probe\": {\"command\": \"npx\", "
                + "\"args\": [\"-y\", \"" + pkg + "\"]}}}");
        ProcessBuilder builder = new ProcessBuilder("npx", "-y", pkg.toString()).directory(home.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("npm_config_update_notifier", "false");
        Process npx = builder.start();
        started.add(npx);
        // Until npm retitles itself, its argv (node /usr/bin/npx -y PKG) matches the entry's interpreter form;
        // the title is what this test is about, and the node it starts once its cache is ready.
        Patience.await(Duration.ofSeconds(60), Duration.ofMillis(100), () -> npx.descendants().findAny().isPresent()
                && commandLine(npx.pid()).startsWith("npm exec"), "npx to retitle itself and start its package");

        FleetJar.Run json = awaitServers(home, npx, 1);

        JsonNode entry = serverOf(json.stdoutJson(), npx.pid());
        assertEquals("probe", entry.get("name").asText(), json.stdout());
        assertEquals("current", entry.get("state").asText(), json.stdout());
        assertTrue(entry.get("pids").size() > 1, "npm exec with the process it started: " + json.stdout());
    }

    /** The servers' command: {@code sleep} with seconds no other test's sleep uses, so only ours match. */
    private static String uniqueSeconds() {
        return "600." + ThreadLocalRandom.current().nextInt(10_000_000, 99_999_999);
    }

    /** A Claude Code user configuration in {@code home} with one stdio server {@code name}: sleep SECONDS. */
    private static void configure(Path home, String name, String seconds) throws IOException {
        String escapedName = name.replace("\u001b", "\\u001b");
        Files.writeString(home.resolve(".claude.json"), "{\"mcpServers\": {\"" + escapedName
                + "\": {\"type\": \"stdio\", \"command\": \"sleep\", \"args\": [\"" + seconds + "\"], "
                + "\"env\": {\"API_TOKEN\": \"never-shown\"}}}}");
    }

    /** The server started as a client starts it: stdin and stdout pipes held by this JVM. */
    private Process startServer(String seconds) throws IOException {
        Process server = new ProcessBuilder("sleep", seconds).start();
        started.add(server);
        return server;
    }

    private static Map<String, String> environment(Path home) {
        return Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", home.resolve(".config").toString());
    }

    /** {@code fleet host --format json} once it shows {@code expected} servers of ours, the last being {@code last}. */
    private static FleetJar.Run awaitServers(Path home, Process last, int expected) throws Exception {
        FleetJar.Run[] run = new FleetJar.Run[1];
        Patience.await(Duration.ofSeconds(20), Duration.ofMillis(200), () -> {
            run[0] = FleetJar.run(environment(home), "host", "--format", "json");
            try {
                return run[0].stdoutJson().get("servers").size() == expected
                        && serverOf(run[0].stdoutJson(), last.pid()) != null;
            } catch (IOException e) {
                return false;
            }
        }, "fleet host to show " + expected + " servers");
        assertFalse(run[0].stdout().contains("never-shown"), "an env value is never read into output");
        return run[0];
    }

    private static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    private static JsonNode serverOf(JsonNode report, long pid) {
        for (JsonNode server : report.get("servers")) {
            if (server.get("root_pid").asLong() == pid) {
                return server;
            }
        }
        return null;
    }
}
