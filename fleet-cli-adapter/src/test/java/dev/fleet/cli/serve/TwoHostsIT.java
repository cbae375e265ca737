package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.cli.verb.RunningJar;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.registry.postgresql.LocalPostgresServer;
import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.postgresql.PostgresRegistryReader;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many hosts, one registry (docs/CONTRACT.md, "Many hosts"), end to end: real {@code fleet serve} processes
 * and the real jar's {@code assess} on a real PostgreSQL started by the test. Two hosts are two host
 * ids ({@code FLEET_HOST_ID}) and two rosters whose patterns see only their own host's servers, as two
 * machines would. A reconciler on each host closes both gates with {@code remote_member}; once the
 * second host stops its reconciler, or once its lease lapses, both open again.
 */
class TwoHostsIT {

    private static final String RECONCILER = "{\"namespace\": \"gitea-reconciler\", \"profile\": \"prgs-reconciler\", "
            + "\"role\": \"reconciler\"}";

    @RegisterExtension
    static final LocalPostgresServer POSTGRES = new LocalPostgresServer();

    @TempDir
    Path dir;

    /** One host: its id and a roster (one reconciler) whose pattern matches only servers started with it. */
    private record Host(String id, Path roster) {
        Map<String, String> env() {
            return Map.of("FLEET_HOST_ID", id, "GITEA_MCP_COHORT_ID", "cohort-" + id);
        }
    }

    private Host host(String id) throws IOException {
        Path roster = dir.resolve("roster-" + id + ".json");
        String pattern = ("fleet\\.jar serve .*--roster " + Pattern.quote(roster.toString()) + "(\\s|$)")
                .replace("\\", "\\\\");
        Files.writeString(roster, "{\"binding\": {\"remote\": \"prgs\", \"org\": \"Scaled-Tech-Consulting\", "
                + "\"repo\": \"Gitea-Tools\"}, \"members\": [" + RECONCILER + "], \"server_process_patterns\": [\""
                + pattern + "\"]}");
        return new Host(id, roster);
    }

    private ServeProcess serve(Host host, String registry, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary()));
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-jar", FleetJar.JAR.toString(), "serve", "--profile", "prgs-reconciler",
                "--roster", host.roster().toString(), "--registry", registry,
                "--repository-root", TestFleets.repository(dir.resolve("registry")).toString()));
        command.addAll(List.of(extra));
        return ServeProcess.start(command, "prgs-reconciler-" + host.id(), host.env());
    }

    private static FleetJar.Run assess(Host host, String registry, String... extra) {
        List<String> args = new ArrayList<>(List.of("assess", "--registry", registry, "--roster",
                host.roster().toString(), "--format", "json"));
        args.addAll(List.of(extra));
        return FleetJar.run(host.env(), args.toArray(String[]::new));
    }

    @Test
    void aRemoteDuplicateClosesBothGatesUntilItStopsOrItsLeaseLapses() throws Exception {
        String registry = POSTGRES.createDatabase("two_hosts");
        Host first = host("host-a");
        Host second = host("host-b");
        try (ServeProcess local = serve(first, registry)) {
            try (ServeProcess remote = serve(second, registry)) {
                awaitRunningRows(registry, 2);
                for (Host host : List.of(first, second)) {
                    JsonNode verdict = expectExit(1, assess(host, registry));
                    assertEquals("remote_member", verdict.get("blocked_reason").asText(), verdict.toString());
                    assertEquals(1, verdict.get("running_member_count").asInt());
                    assertEquals(host == first ? "host-b" : "host-a",
                            verdict.get("remote_instances").get(0).get("host_id").asText());
                    assertEquals(host.id(), verdict.get("observation").get("host_id").asText());
                }
                remote.closeStdinAndDrain();
            }
            awaitRunningRows(registry, 1);
            for (Host host : List.of(first)) {
                JsonNode verdict = expectExit(0, assess(host, registry));
                assertEquals(0, verdict.get("remote_instances").size());
            }

            // A second host's server that stops heartbeating (an hour apart here) is live only for its lease.
            try (ServeProcess silent = serve(second, registry, "--heartbeat-seconds", "3600")) {
                awaitRunningRows(registry, 2);
                assertEquals("remote_member", expectExit(1, assess(first, registry, "--lease", "1h"))
                        .get("blocked_reason").asText());
                JsonNode lapsed = awaitVerdict(first, registry, verdict -> verdict.get("mutation_gate_satisfied")
                        .asBoolean(), "--lease", "2s");
                assertEquals("lease_expired", lapsed.get("stale_registrations").get(0).get("reason").asText());
                silent.closeStdinAndDrain();
            }
        }
    }

    private static JsonNode expectExit(int exitCode, FleetJar.Run run) throws IOException {
        assertEquals(exitCode, run.exitCode(), run.stderr() + run.stdout());
        return run.stdoutJson();
    }

    /** Assesses again (a bounded number of times) until {@code done} holds. */
    private static JsonNode awaitVerdict(Host host, String registry, Predicate<JsonNode> done, String... extra)
            throws Exception {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = assess(host, registry, extra).stdoutJson();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("the verdict never changed (" + Patience.describe() + "): " + last);
    }

    private static void awaitRunningRows(String registry, int count) throws InterruptedException {
        PostgresRegistryReader reader = new PostgresRegistryReader(PostgresLocation.parse(registry));
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        RegistryRead read = null;
        while (System.nanoTime() < deadline) {
            read = reader.read(RegistrationStatus.RUNNING);
            if (read.readable() && read.rows().size() == count) {
                return;
            }
            Thread.sleep(100);
        }
        assertTrue(false, "never saw " + count + " running rows (" + Patience.describe() + "): " + read);
    }
}
