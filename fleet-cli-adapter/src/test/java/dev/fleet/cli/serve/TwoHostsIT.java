package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.jar.RunningJar;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
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

    private static final String FIVE_MEMBERS = String.join(", ", List.of(
            "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", \"role\": \"author\"}",
            "{\"namespace\": \"gitea-reviewer\", \"profile\": \"prgs-reviewer\", \"role\": \"reviewer\"}",
            "{\"namespace\": \"gitea-controller\", \"profile\": \"prgs-controller\", \"role\": \"controller\"}",
            "{\"namespace\": \"gitea-merger\", \"profile\": \"prgs-merger\", \"role\": \"merger\"}", RECONCILER));

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
        return host(id, RECONCILER);
    }

    /** A host whose roster holds {@code members} (JSON objects, comma-separated). */
    private Host host(String id, String members) throws IOException {
        Path roster = dir.resolve("roster-" + id + ".json");
        String pattern = ("fleet\\.jar serve .*--roster " + Pattern.quote(roster.toString()) + "(\\s|$)")
                .replace("\\", "\\\\");
        Files.writeString(roster, "{\"binding\": {\"remote\": \"prgs\", \"org\": \"Scaled-Tech-Consulting\", "
                + "\"repo\": \"Gitea-Tools\"}, \"members\": [" + members + "], \"server_process_patterns\": [\""
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

    /**
     * Issue 48: the guide's host-B step said host B is "blocked by remote_member", but a host that runs none of
     * the five is told {@code missing_member} first, and {@code remote_member} after it. The guide's example
     * output for that step is what the real assessment prints: its first line, and its anomalies in order.
     */
    @Test
    void theGuidesHostBStepShowsWhatAHostRunningNothingIsTold() throws Exception {
        String registry = POSTGRES.createDatabase("host_b_step");
        Host hostA = host("host-a");
        Host hostB = host("host-b", FIVE_MEMBERS);
        try (ServeProcess reconciler = serve(hostA, registry)) {
            awaitRunningRows(registry, 1);
            FleetJar.Run told = FleetJar.run(hostB.env(), "assess", "--registry", registry, "--roster",
                    hostB.roster().toString());

            assertEquals(1, told.exitCode(), told.stderr() + told.stdout());
            List<String> lines = told.stdout().lines().toList();
            List<String> anomalies = lines.stream().filter(line -> line.startsWith("! ")).toList();
            assertTrue(lines.get(0).startsWith("GATE NOT SATISFIED  blocked by missing_member  "), told.stdout());
            assertEquals(List.of("missing_member", "remote_member"), anomalies.stream().map(TwoHostsIT::code).toList());

            List<String> guide = GuideExample.hostBStep();
            assertEquals(lines.get(0), guide.get(0), "the guide's first line is the real one");
            List<String> guideAnomalies = guide.stream().filter(line -> line.startsWith("! ")).toList();
            assertEquals(anomalies.stream().map(TwoHostsIT::code).toList(),
                    guideAnomalies.stream().map(TwoHostsIT::code).toList(), "the guide's anomalies, in order");
            assertEquals(anomalies.get(0), guideAnomalies.get(0), "the missing members, as printed");
            assertTrue(anomalies.get(1).startsWith("! remote_member: gitea-reconciler/prgs-reconciler pid ")
                    && guideAnomalies.get(1).startsWith("! remote_member: gitea-reconciler/prgs-reconciler pid "),
                    anomalies.get(1) + " | " + guideAnomalies.get(1));
            reconciler.closeStdinAndDrain();
        }
    }

    /** "! missing_member: …" → "missing_member". */
    private static String code(String anomaly) {
        return anomaly.substring(2, anomaly.indexOf(':'));
    }

    /** The example output docs/GUIDE.md gives for host B's {@code assess}: the text block after that step. */
    private static final class GuideExample {
        static List<String> hostBStep() throws IOException {
            List<String> guide = Files.readAllLines(Path.of("..", "docs", "GUIDE.md"));
            int step = -1;
            for (int i = 0; i < guide.size() && step < 0; i++) {
                if (guide.get(i).startsWith("./fleet assess") && guide.get(i).contains("# on host B")) {
                    step = i;
                }
            }
            assertTrue(step >= 0, "docs/GUIDE.md has a host-B assess step");
            int open = step;
            while (open < guide.size() && !guide.get(open).equals("```text")) {
                open++;
            }
            int close = open + 1;
            while (close < guide.size() && !guide.get(close).equals("```")) {
                close++;
            }
            assertTrue(close < guide.size(), "the host-B step is followed by its example output");
            return guide.subList(open + 1, close);
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
