package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.testing.JsonRpcProcess;
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
 * {@code fleet mcp-config}: valid JSON with one server per roster member, absolute paths, and a
 * command line that really starts a member answering {@code initialize}.
 */
class McpConfigIT {

    @TempDir
    Path dir;

    @Test
    void printsOneStdioServerPerMemberWithAbsolutePaths() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path root = TestFleets.repository(registry);
        Path roster = TestFleets.roster(registry);

        FleetJar.Run run = FleetJar.run("mcp-config", "--repository-root", root.toString(), "--roster",
                roster.toString(), "--registry", registry.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        JsonNode servers = run.stdoutJson().get("mcpServers");
        List<String> names = new ArrayList<>();
        servers.fieldNames().forEachRemaining(names::add);
        assertEquals(Roster.defaultRoster().members().stream().map(RosterMember::namespace).toList(), names);
        for (RosterMember member : Roster.defaultRoster().members()) {
            JsonNode server = servers.get(member.namespace());
            assertEquals("stdio", server.get("type").asText());
            Path command = Path.of(server.get("command").asText());
            assertTrue(command.isAbsolute() && Files.isExecutable(command), command.toString());
            assertEquals("fleet", command.getFileName().toString(), "the checkout's launcher");
            assertEquals(List.of("serve", "--profile", member.profile(), "--repository-root", root.toString(),
                    "--roster", roster.toString(), "--registry", registry.toString(), "--cohort-from-parent"),
                    args(server));
        }
    }

    @Test
    void aServerCommandIsWrappedPerMemberAndItsRegistryAndPatternGoToStderr() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path root = TestFleets.repository(registry);
        FleetJar.Run run = FleetJar.run("mcp-config", "--repository-root", root.toString(), "--registry",
                registry.toString(), "--server-command", "python3 '/srv/my tools/server.py' --profile {profile} "
                        + "--role={role}");
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode servers = run.stdoutJson().get("mcpServers");
        for (RosterMember member : Roster.defaultRoster().members()) {
            List<String> args = args(servers.get(member.namespace()));
            assertEquals(List.of("--cohort-from-parent", "--", "python3", "/srv/my tools/server.py", "--profile",
                    member.profile(), "--role=" + member.role()), args.subList(args.indexOf("--cohort-from-parent"),
                    args.size()));
        }
        List<String> stderr = run.stderrLines();
        assertEquals("fleet: this fleet's registry: " + registry, stderr.get(0));
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        String pattern = json.readValue(stderr.get(1).substring(stderr.get(1).lastIndexOf(": ") + 2), String.class);
        JsonNode roster = json.readTree(stderr.get(2).substring(stderr.get(2).indexOf("\"server_process_patterns\": ")
                + "\"server_process_patterns\": ".length()));
        assertEquals(List.of(ServerTemplate.membersPattern(registry.toString()), pattern),
                json.convertValue(roster, List.class), "this registry's members, then the server");
        dev.fleet.observer.ServerPatterns members = dev.fleet.observer.ServerPatterns.compile(
                List.of(roster.get(0).asText()));
        List<String> entry = args(servers.get("gitea-author"));
        assertTrue(members.matches("/usr/bin/java -jar /opt/fleet/fleet-cli-adapter/target/fleet.jar "
                + String.join(" ", entry)), "a member this configuration starts");
        assertFalse(members.matches("/usr/bin/java -jar /opt/fleet/fleet-cli-adapter/target/fleet.jar serve "
                + "--profile prgs-author --registry /elsewhere/other.sqlite3"), "another fleet's member");
        dev.fleet.observer.ServerPatterns patterns = dev.fleet.observer.ServerPatterns.compile(List.of(pattern));
        assertTrue(patterns.matches("/usr/bin/python3 /srv/my tools/server.py --profile prgs-merger --role=merger"),
                pattern);
        assertFalse(patterns.matches("python3 /srv/my tools/other.py --profile prgs-merger --role=merger"), pattern);
        FleetJar.Run unclosed = FleetJar.run("mcp-config", "--repository-root", root.toString(),
                "--server-command", "python3 'server.py");
        assertEquals(2, unclosed.exitCode());
        assertEquals(List.of("fleet: --server-command has an unclosed single quote"), unclosed.stderrLines());
    }

    @Test
    void aBadServerCommandIsOneLineAndExitTwoAndADoubtfulOneAWarningEach() throws Exception {
        Path root = TestFleets.repository(dir.resolve("r.sqlite3"));
        FleetJar.Run unknown = FleetJar.run("mcp-config", "--repository-root", root.toString(), "--server-command",
                "srv --profile {profil}");
        assertEquals(2, unknown.exitCode());
        assertEquals("", unknown.stdout());
        assertEquals(List.of("fleet: --server-command holds an unknown placeholder {profil}: the placeholders are "
                + "{profile}, {namespace} and {role}"), unknown.stderrLines());
        FleetJar.Run windows = FleetJar.run("mcp-config", "--repository-root", root.toString(), "--server-command",
                "\"C:\\tools\\srv\" ./server.py");
        assertEquals(0, windows.exitCode(), windows.stderr());
        assertEquals(List.of("--", "C:\\tools\\srv", "./server.py"), tail(args(windows.stdoutJson().get("mcpServers")
                .get("gitea-author")), 3), "a backslash in double quotes stays");
        List<String> warnings = windows.stderrLines().stream().filter(line -> line.startsWith("fleet: warning: ")).toList();
        assertEquals(List.of("fleet: warning: --server-command names no {profile}, {namespace} or {role}, so copies of "
                + "it started for another fleet on this host cannot be told apart from this fleet's: add {profile} (your "
                + "server may ignore the argument), e.g. --server-command '... --profile {profile}'",
                "fleet: warning: --server-command names a relative path (./server.py), but clients start servers in a "
                + "working directory of their own: give it from /"), warnings);
        Files.writeString(root.resolve("server.py"), "print()\n");
        FleetJar.Run plainName = FleetJar.run("mcp-config", "--repository-root", root.toString(), "--server-command",
                "python3 server.py --profile {profile}");
        assertEquals(0, plainName.exitCode(), plainName.stderr());
        assertEquals(List.of("fleet: warning: --server-command names a relative path (server.py), but clients start "
                + "servers in a working directory of their own: give it from /"), plainName.stderrLines().stream()
                .filter(line -> line.startsWith("fleet: warning: ")).toList(), "a file of the checkout's, named plainly");
    }

    /**
     * {@code --update-roster} writes the printed patterns into the roster file: by a rename (a new file
     * where the old one was, nothing left beside it), the file's other keys kept in their order, its own
     * patterns kept and none written twice when run again.
     */
    @Test
    void updateRosterWritesThePrintedPatternsIntoTheRosterFileAndKeepsTheRest() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path root = TestFleets.repository(registry);
        Path roster = Files.writeString(dir.resolve("roster.json"), "{\"members\": [{\"role\": \"author\", "
                + "\"namespace\": \"gitea-author\", \"profile\": \"prgs author\"}], \"server_process_patterns\": "
                + "[\"mine serve\"], \"binding\": {\"repo\": \"R\", \"org\": \"O\", \"remote\": \"r\"}}");
        Object before = Files.getAttribute(roster, "unix:ino");
        String[] update = {"mcp-config", "--repository-root", root.toString(), "--roster", roster.toString(),
            "--registry", registry.toString(), "--server-command", "node /srv/s.mjs --profile {profile}",
            "--update-roster"};

        FleetJar.Run run = FleetJar.run(update);

        assertEquals(0, run.exitCode(), run.stderr());
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        JsonNode written = json.readTree(roster.toFile());
        List<String> keys = new ArrayList<>();
        written.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("members", "server_process_patterns", "binding"), keys);
        assertEquals("{\"role\":\"author\",\"namespace\":\"gitea-author\",\"profile\":\"prgs author\"}",
                written.get("members").get(0).toString());
        assertEquals("{\"repo\":\"R\",\"org\":\"O\",\"remote\":\"r\"}", written.get("binding").toString());
        List<String> patterns = json.convertValue(written.get("server_process_patterns"), List.class);
        assertEquals(List.of("mine serve", "(^|[\\s/])node /srv/s\\.mjs --profile prgs author(\\s|$)"), patterns);
        assertTrue(run.stderr().contains("fleet: written into " + roster + ", so that a copy started without fleet "
                + "closes the gate: \"server_process_patterns\": " + json.writeValueAsString(patterns)), run.stderr());
        assertFalse(before.equals(Files.getAttribute(roster, "unix:ino")), "renamed over, never written in place");
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(file -> file.getFileName().toString().endsWith(".tmp")).toList());
        }

        assertEquals(0, FleetJar.run(update).exitCode());
        assertEquals(patterns, json.convertValue(json.readTree(roster.toFile()).get("server_process_patterns"),
                List.class), "run again, nothing is written twice");
        assertEquals(0, FleetJar.run("roster", "--roster", roster.toString()).exitCode(), "still a roster");
    }

    @Test
    void updateRosterWithoutRosterIsOneLineAndExitTwoAndWritesNothing() throws Exception {
        Path root = TestFleets.repository(dir.resolve("r.sqlite3"));
        Path roster = TestFleets.roster(dir.resolve("r.sqlite3"));
        String before = Files.readString(roster);
        FleetJar.Run run = FleetJar.run(Map.of("FLEET_ROSTER", roster.toString()), "mcp-config", "--repository-root",
                root.toString(), "--server-command", "node /srv/s.mjs --profile {profile}", "--update-roster");
        assertEquals(2, run.exitCode());
        assertEquals("", run.stdout());
        assertEquals(List.of("fleet: --update-roster needs --roster FILE: the roster file to write the patterns into"),
                run.stderrLines());
        assertEquals(before, Files.readString(roster), "not the file FLEET_ROSTER names either");
    }

    @Test
    void theClaudeDesktopShapeHasTheSameServersWithoutATypeAndPinsNothingItWasNotGiven() throws Exception {
        Path root = TestFleets.repository(dir.resolve("r.sqlite3"));

        // No XDG_STATE_HOME (the test launcher sets one): the account's default registry, which nothing pins.
        FleetJar.Run run = FleetJar.run(Map.of("XDG_STATE_HOME", ""), "mcp-config", "--repository-root",
                root.toString(), "--format", "claude-desktop");

        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode controller = run.stdoutJson().get("mcpServers").get("gitea-controller");
        assertFalse(controller.has("type"), controller.toString());
        assertEquals(List.of("serve", "--profile", "prgs-controller", "--repository-root", root.toString(),
                "--cohort-from-parent"), args(controller));
    }

    /**
     * A registry this shell's XDG_STATE_HOME locates is pinned, as one FLEET_REGISTRY names: a client started from
     * a desktop has no XDG_STATE_HOME of the shell's, and its members registered where fleet assess here never looked.
     */
    @Test
    void aRegistryThisShellsStateHomeLocatesIsPinned() throws Exception {
        Path root = TestFleets.repository(dir.resolve("r.sqlite3"));
        Path stateHome = Files.createDirectories(dir.resolve("state"));

        FleetJar.Run run = FleetJar.run(Map.of("XDG_STATE_HOME", stateHome.toString()), "mcp-config",
                "--repository-root", root.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(List.of("serve", "--profile", "prgs-controller", "--repository-root", root.toString(),
                "--registry", stateHome.resolve("gitea-tools/control_plane.sqlite3").toString(), "--cohort-from-parent"),
                args(run.stdoutJson().get("mcpServers").get("gitea-controller")));
    }

    /** A profile that opens with '-' is given joined to its option, so that serve reads it as the value it is. */
    @Test
    void aProfileThatLooksLikeAnOptionIsGivenJoined() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path roster = TestFleets.roster(registry, "{\"namespace\": \"odd\", \"profile\": \"-h\", \"role\": \"author\"}, "
                + "{\"namespace\": \"plain\", \"profile\": \"prgs-plain\", \"role\": \"reviewer\"}", "odd-roster.json");

        FleetJar.Run run = FleetJar.run("mcp-config", "--repository-root", TestFleets.repository(registry).toString(),
                "--roster", roster.toString());

        assertEquals(0, run.exitCode(), run.stderr());
        List<String> odd = args(run.stdoutJson().get("mcpServers").get("odd"));
        assertEquals(List.of("serve", "--profile=-h"), odd.subList(0, 2), odd.toString());
        List<String> plain = args(run.stdoutJson().get("mcpServers").get("plain"));
        assertEquals(List.of("serve", "--profile", "prgs-plain"), plain.subList(0, 3), plain.toString());
    }

    @Test
    void aRootThatIsNotAGitCheckoutIsOneLineAndExitTwo() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));
        FleetJar.Run run = FleetJar.run("mcp-config", "--repository-root", plain.toString());
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        assertEquals(List.of("fleet: --repository-root " + plain + " is not a git checkout with a commit: its "
                + "servers would report no startup head (run this in the checkout, or name it)"), run.stderrLines());
        assertEquals(2, FleetJar.run("mcp-config", "--format", "yaml").exitCode());
    }

    @Test
    void aConfiguredCommandLineStartsAMemberThatAnswersInitialize() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        FleetJar.Run run = FleetJar.run("mcp-config", "--repository-root",
                TestFleets.repository(registry).toString(), "--roster", TestFleets.roster(registry).toString(),
                "--registry", registry.toString());
        JsonNode controller = run.stdoutJson().get("mcpServers").get("gitea-controller");
        List<String> command = new ArrayList<>(List.of(controller.get("command").asText()));
        command.addAll(args(controller));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());

        try (JsonRpcProcess server = JsonRpcProcess.start(builder, dir.resolve("serve.err"))) {
            JsonNode initialized = server.initialize();
            assertEquals("2.0", initialized.get("jsonrpc").asText(), initialized.toString());
            assertTrue(initialized.path("result").has("serverInfo"), initialized.toString());
            assertEquals("gitea-controller", TestFleets.awaitRunningRows(registry, 1).get(0).namespace());
            server.closeStdin();
            assertTrue(server.awaitExit(60, TimeUnit.SECONDS), server.stderrText());
            assertEquals(0, server.process().exitValue(), server.stderrText());
        }
    }

    /** A jar with no launcher beside it is configured as java -jar, with the JVM's own output kept off stdout. */
    @Test
    void withoutTheLauncherTheJavaCommandKeepsTheJvmsOwnOutputOffStdout() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Path root = TestFleets.repository(registry);
        Path jar = Files.copy(FleetJar.JAR, Files.createDirectories(dir.resolve("installed")).resolve("fleet.jar"));

        FleetJar.Run run = FleetJar.runJava(Duration.ofSeconds(60), Map.of(), List.of("-jar", jar.toString(),
                "mcp-config", "--repository-root", root.toString(), "--registry", registry.toString()));

        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode server = run.stdoutJson().get("mcpServers").get("gitea-author");
        assertEquals("java", Path.of(server.get("command").asText()).getFileName().toString(), server.toString());
        assertEquals(List.of("-Xlog:disable", "-Xlog:all=error:stderr", "-XX:+DisplayVMOutputToStderr", "-jar",
                jar.toString(), "serve"), args(server).subList(0, 6));
    }

    private static List<String> tail(List<String> list, int count) {
        return list.subList(list.size() - count, list.size());
    }

    private static List<String> args(JsonNode server) {
        List<String> args = new ArrayList<>();
        server.get("args").forEach(arg -> args.add(arg.asText()));
        return args;
    }
}
