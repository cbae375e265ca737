package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.cli.testing.VerdictShape;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet assess} over a member that wraps its own server, before the relay exists: a real process
 * tree (a process whose command line is a {@code fleet serve}'s, its child the operator's "Python" server,
 * and that server's worker) and the member's row recording the server (schema version 7), as the relay
 * will write it. The jar reads the row, observes the tree with its ancestors, and judges it: served, a copy
 * by hand unregistered (its token masked), a gone server {@code server_exited}. The test starts every
 * process and kills them all.
 */
class WrappedServersIT {

    @TempDir
    Path dir;

    private final List<MarkerProcess> markers = new ArrayList<>();
    private final List<Process> trees = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        trees.forEach(WrappedMembers::killTree);
        markers.forEach(MarkerProcess::close);
    }

    @Test
    void aWrappedServerAndItsWorkerAreServedACopyByHandIsNotAndAGoneServerStopsTheMember() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        String server = "python3 /srv/gitea_mcp.py --token s3cret --registry " + registry;
        Process fleet = wrappingTree(registry, server);
        ProcessHandle python = below(fleet, server + " " + dir.resolve("server.sh"));
        ProcessHandle worker = below(fleet, server + " --worker");
        registerFleet(registry, fleet.pid(), python);
        MarkerProcess copy = MarkerProcess.start(server);
        markers.add(copy);
        Path roster = roster(registry);

        JsonNode withCopy = assess(registry, roster, 1);

        assertEquals("unregistered_process", withCopy.get("blocked_reason").asText(), withCopy.toString());
        assertEquals(1, withCopy.get("unregistered_processes").size(), withCopy.toString());
        JsonNode stray = withCopy.get("unregistered_processes").get(0);
        assertEquals(copy.pid(), stray.get("pid").asLong());
        assertEquals("python3 /srv/gitea_mcp.py --token *** --registry " + registry + " 600",
                stray.get("command_line").asText());
        JsonNode author = withCopy.at("/members/0/instances/0");
        assertEquals(fleet.pid(), author.get("pid").asLong());
        assertEquals(python.pid(), author.get("server_pid").asLong());
        assertEquals("python3 gitea_mcp.py --token ***", author.get("server_command").asText());
        assertEquals(List.of(Math.min(python.pid(), worker.pid()), Math.max(python.pid(), worker.pid())),
                StreamSupport.stream(author.get("served_pids").spliterator(), false).map(JsonNode::asLong).toList());
        assertFalse(withCopy.toString().contains("s3cret"));

        copy.close();
        JsonNode satisfied = assess(registry, roster, 0);
        assertEquals(5, satisfied.get("running_member_count").asInt(), satisfied.toString());

        python.descendants().forEach(ProcessHandle::destroyForcibly);
        python.destroyForcibly();
        // Its worker, killed first, may linger as a zombie if nothing reaps it: no process to an observer.
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), () -> !python.isAlive(), "the server ended");
        JsonNode gone = assess(registry, roster, 1);
        assertEquals("server_exited", gone.at("/stale_registrations/0/reason").asText(), gone.toString());
        assertEquals(4, gone.get("running_member_count").asInt());
    }

    /**
     * A {@code bash} showing {@code fleet serve}'s command line for {@code registry}, whose child shows
     * {@code server}'s and has a child of its own, {@code server --worker}: each level a script that renames
     * the bash running it (or the sleep at the bottom) with {@code exec -a}.
     */
    private Process wrappingTree(Path registry, String server) throws Exception {
        // The member outlives its server, as fleet serve does while it stops: the wait, then a sleep of its own.
        Path fleetLevel = script("fleet.sh", "(exec -a \"$FLEET_TEST_SERVER\" bash \"$FLEET_TEST_DIR/server.sh\") & wait\n"
                + "sleep 600\n:");
        script("server.sh", "(exec -a \"$FLEET_TEST_SERVER --worker\" sleep 600) & wait");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "exec -a \"$FLEET_TEST_FLEET\" bash \"$0\"",
                fleetLevel.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("FLEET_TEST_FLEET", "java -jar /opt/fleet-test/fleet.jar serve --profile "
                + "prgs-author --registry " + registry + " --");
        builder.environment().put("FLEET_TEST_SERVER", server);
        builder.environment().put("FLEET_TEST_DIR", dir.toString());
        Process fleet = builder.start();
        trees.add(fleet);
        return fleet;
    }

    private Path script(String name, String body) throws Exception {
        return Files.writeString(dir.resolve(name), body + "\n");
    }

    /** The process below {@code root} whose command line starts with {@code prefix}, once it runs. */
    private static ProcessHandle below(Process root, String prefix) throws InterruptedException {
        ProcessHandle[] found = new ProcessHandle[1];
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(10), () -> {
            found[0] = root.descendants().filter(handle -> commandLine(handle.pid()).startsWith(prefix))
                    .findFirst().orElse(null);
            return found[0] != null;
        }, "a process below " + root.pid() + " showing " + prefix);
        return found[0];
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (java.io.IOException gone) {
            return "";
        }
    }

    /** The author wrapping {@code python} from {@code fleetPid}, and the four other members as plain markers. */
    private void registerFleet(Path registry, long fleetPid, ProcessHandle python) throws Exception {
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        List<RosterMember> members = Roster.defaultRoster().members();
        java.util.Map<RosterMember, Long> pids = new java.util.HashMap<>();
        for (RosterMember member : members) {
            if (!member.equals(members.get(0))) {
                MarkerProcess plain = MarkerProcess.servingRegistry(registry, member.profile());
                markers.add(plain);
                pids.put(member, plain.pid());
            }
        }
        // Registered after every process has started, as a real server registers (rule 5: a start later
        // than the registration is a recycled pid), however slowly a loaded host started them.
        Instant now = Instant.now().plusSeconds(1);
        for (RosterMember member : members) {
            long pid = pids.getOrDefault(member, fleetPid);
            Registration.Builder row = Registration.builder().runtimeId("rt-" + pid).identity(member)
                    .binding(Binding.DEFAULT).pid(pid).cohort("it-cohort", CohortSource.ENV)
                    .clientProvenance(ClientProvenance.CLIENT_MANAGED).startupHead(TestFleets.HEAD)
                    .transport(Transport.STDIO).status(RegistrationStatus.RUNNING).registeredAt(now).lastHeartbeatAt(now);
            if (pid == fleetPid) {
                row.server("python3 gitea_mcp.py --token s3cret", python.pid(),
                        python.info().startInstant().orElseThrow());
            }
            writer.register(row.build(), Optional.empty());
        }
    }

    /** The default roster, its patterns scoped to this registry: fleet's serve, and the operator's server. */
    private static Path roster(Path registry) throws Exception {
        Path scoped = TestFleets.roster(registry);
        String python = ("gitea_mcp\\.py .*--registry " + Pattern.quote(registry.toString()) + "(\\s|$)")
                .replace("\\", "\\\\");
        String json = Files.readString(scoped);
        return Files.writeString(scoped, json.replace("\"server_process_patterns\": [",
                "\"server_process_patterns\": [\"" + python + "\", "));
    }

    private static JsonNode assess(Path registry, Path roster, int exitCode) throws Exception {
        FleetJar.Run run = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString(),
                "--format", "json");
        assertEquals(exitCode, run.exitCode(), run.stdout() + run.stderr());
        JsonNode verdict = run.stdoutJson();
        assertEquals(List.of(), VerdictShape.problems(verdict));
        return verdict;
    }
}
