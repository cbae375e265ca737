package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.SecretArguments;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capability end to end: five members that each wrap an operator's own server through the relay
 * ({@code fleet serve -- COMMAND}) satisfy the gate, each instance naming its server; a copy of the same
 * server started without fleet closes it as an {@code unregistered_process}, and still does once a row's
 * {@code server_pid} is edited to name the client that started the members (the copy's parent too) or init.
 * The server's arguments carry a secret in every form fleet masks ({@link SecretArguments}): the rows, the
 * verdict (JSON and text) and {@code fleet processes} (JSON and text) show each masked whole.
 */
class WrappedFleetIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<ServeProcess> members = new ArrayList<>();
    private Process copy;

    @AfterEach
    void stopEverything() {
        members.forEach(ServeProcess::close);
        if (copy != null) {
            copy.destroyForcibly();
        }
    }

    @Test
    void fiveWrappedMembersSatisfyTheGateAndAnUnwrappedCopyClosesItWhateverServerPidARowIsEditedToName() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // The operator's "server": bash reading its stdin until EOF, named by a marker of this test's own.
        String marker = "own-server-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        List<String> server = new ArrayList<>(List.of("bash", "-c", "while read -r line; do :; done", marker));
        server.addAll(SecretArguments.ARGUMENTS);
        String shown = "bash -c while read -r line; do :; done " + marker + " " + SecretArguments.MASKED;
        Path roster = roster(registry, marker);
        for (RosterMember member : Roster.defaultRoster().members()) {
            List<String> command = new ArrayList<>(ServeProcess.serveCommand(List.of(), registry, roster,
                    member.profile()));
            command.add("--");
            command.addAll(server);
            members.add(ServeProcess.start(command, member.profile(), Map.of("GITEA_MCP_COHORT_ID", "one-client")));
        }
        TestFleets.awaitRunningRows(registry, 5);

        FleetJar.Run satisfied = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                roster.toString(), "--format", "json");
        JsonNode verdict = satisfied.stdoutJson();
        assertEquals(0, satisfied.exitCode(), satisfied.stdout());
        Set<Long> fleetPids = new TreeSet<>();
        members.forEach(member -> fleetPids.add(member.pid()));
        for (JsonNode member : verdict.get("members")) {
            JsonNode instance = member.get("instances").get(0);
            assertTrue(fleetPids.contains(instance.get("pid").asLong()), "the member is the fleet process: " + instance);
            long serverPid = instance.get("server_pid").asLong();
            assertEquals(ProcessHandle.of(instance.get("pid").asLong()).orElseThrow().children()
                    .map(ProcessHandle::pid).toList(), List.of(serverPid), "its server is its child");
            assertEquals(shown, instance.get("server_command").asText());
            assertEquals(List.of(serverPid), JSON.convertValue(instance.get("served_pids"),
                    JSON.getTypeFactory().constructCollectionType(List.class, Long.class)));
        }

        SecretArguments.assertHidden(satisfied.stdout(), "the verdict");
        for (RegistryRow row : new SqliteRegistryReader(registry).readAll().rows()) {
            assertEquals(shown, row.serverCommand(), "the row keeps the command masked");
        }

        copy = new ProcessBuilder(server).start(); // stdin stays open: the copy runs until killed
        FleetJar.Run closed = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                roster.toString(), "--format", "json");
        JsonNode blocked = closed.stdoutJson();
        assertEquals(1, closed.exitCode(), closed.stdout());
        assertEquals("unregistered_process", blocked.get("blocked_reason").asText(), closed.stdout());
        assertEquals(List.of(copy.pid()), blocked.get("unregistered_processes").findValues("pid").stream()
                .map(JsonNode::asLong).toList());
        assertEquals(shown, blocked.at("/unregistered_processes/0/command_line").asText());
        SecretArguments.assertHidden(closed.stdout(), "the verdict");
        assertEquals(5, blocked.get("running_member_count").asInt(), "the members still run");
        assertShownMasked(registry, roster, shown);

        String spoofed = blocked.at("/members/0/instances/0/runtime_id").asText();
        Instant clientStarted = ProcessHandle.current().info().startInstant().orElseThrow();
        assertTheCopyIsStillUnregistered(registry, roster, spoofed, ProcessHandle.current().pid(), clientStarted);
        assertTheCopyIsStillUnregistered(registry, roster, spoofed, 1L, null);
    }

    /** The copy's command line as the text verdict and {@code fleet processes} (JSON and text) show it. */
    private void assertShownMasked(Path registry, Path roster, String shown) throws Exception {
        FleetJar.Run text = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString(),
                "--format", "text");
        assertTrue(text.stdout().contains(shown), text.stdout());
        SecretArguments.assertHidden(text.stdout(), "the text verdict");
        FleetJar.Run json = FleetJar.run("processes", "--roster", roster.toString(), "--format", "json");
        assertEquals(0, json.exitCode(), json.stderr());
        JsonNode listed = null;
        for (JsonNode process : json.stdoutJson().get("processes")) {
            listed = process.get("pid").asLong() == copy.pid() ? process : listed;
        }
        assertTrue(listed != null, json.stdout());
        assertEquals(shown, listed.get("command_line").asText());
        SecretArguments.assertHidden(json.stdout(), "fleet processes");
        FleetJar.Run table = FleetJar.run("processes", "--roster", roster.toString(), "--format", "text");
        assertTrue(table.stdout().contains(shown), table.stdout());
        SecretArguments.assertHidden(table.stdout(), "fleet processes as text");
    }

    /**
     * The row {@code runtimeId} edited to name {@code serverPid} (started at {@code startedAt}, null: none
     * recorded) as its server: the process it names is not the member's child, so it serves nothing, and the
     * copy below it stays an unregistered process that closes the gate.
     */
    private void assertTheCopyIsStillUnregistered(Path registry, Path roster, String runtimeId, long serverPid,
            Instant startedAt) throws Exception {
        try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + registry);
                PreparedStatement update = sql.prepareStatement("UPDATE mcp_server_runtimes SET server_pid = ?, "
                        + "server_started_at = ? WHERE runtime_id = ?")) {
            update.setLong(1, serverPid);
            update.setString(2, startedAt == null ? null : Timestamps.format(startedAt));
            update.setString(3, runtimeId);
            assertEquals(1, update.executeUpdate());
        }
        FleetJar.Run run = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString(),
                "--format", "json");
        JsonNode verdict = run.stdoutJson();
        assertEquals(1, run.exitCode(), run.stdout());
        assertFalse(verdict.get("mutation_gate_satisfied").asBoolean(), run.stdout());
        assertTrue(verdict.get("unregistered_processes").findValues("pid").stream()
                .anyMatch(pid -> pid.asLong() == copy.pid()), "server_pid " + serverPid + ": " + run.stdout());
        assertEquals(5, verdict.get("running_member_count").asInt(), "the edited member still runs: " + run.stdout());
    }

    /** The default roster whose patterns find this registry's members and this test's server. */
    private static Path roster(Path registry, String marker) throws Exception {
        String members = JSON.writeValueAsString(Roster.defaultRoster().members().stream()
                .map(member -> Map.of("namespace", member.namespace(), "profile", member.profile(), "role",
                        member.role())).toList());
        String patterns = JSON.writeValueAsString(List.of(TestFleets.serverPattern(registry),
                Pattern.quote(marker) + "(\\s|$)"));
        return Files.writeString(registry.resolveSibling("wrapped-roster.json"), "{\"binding\": {\"remote\": \"prgs\", "
                + "\"org\": \"Scaled-Tech-Consulting\", \"repo\": \"Gitea-Tools\"}, \"members\": " + members
                + ", \"server_process_patterns\": " + patterns + "}");
    }
}
