package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.nio.file.Files;
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
 * server started without fleet closes it as an {@code unregistered_process}.
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
    void fiveWrappedMembersSatisfyTheGateAndAnUnwrappedCopyClosesIt() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // The operator's "server": bash reading its stdin until EOF, named by a marker of this test's own.
        String marker = "own-server-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        List<String> server = List.of("bash", "-c", "while read -r line; do :; done", marker);
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
            assertEquals("bash -c while read -r line; do :; done " + marker, instance.get("server_command").asText());
            assertEquals(List.of(serverPid), JSON.convertValue(instance.get("served_pids"),
                    JSON.getTypeFactory().constructCollectionType(List.class, Long.class)));
        }

        copy = new ProcessBuilder(server).start(); // stdin stays open: the copy runs until killed
        FleetJar.Run closed = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                roster.toString(), "--format", "json");
        JsonNode blocked = closed.stdoutJson();
        assertEquals(1, closed.exitCode(), closed.stdout());
        assertEquals("unregistered_process", blocked.get("blocked_reason").asText(), closed.stdout());
        assertEquals(List.of(copy.pid()), blocked.get("unregistered_processes").findValues("pid").stream()
                .map(JsonNode::asLong).toList());
        assertEquals(5, blocked.get("running_member_count").asInt(), "the members still run");
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
