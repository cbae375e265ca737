package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.jar.RunningJar;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pids mean something only within a pid namespace. In a real child namespace
 * ({@code unshare --pid --fork --mount-proc}, root only), an answerer must not read the host's
 * registrations as exited, and the host must not take a child's pid for one of its own processes:
 * either way the gate stays closed with {@code pid_namespace_mismatch}.
 */
class PidNamespaceIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CHILD_NAMESPACE = List.of("unshare", "--pid", "--fork", "--mount-proc");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsUnshare() throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder(add(CHILD_NAMESPACE, "true")).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("unshare is not installed: " + e.getMessage());
            return;
        }
        boolean done = probe.waitFor(60, TimeUnit.SECONDS);
        Assumptions.assumeTrue(done && probe.exitValue() == 0,
                "this machine cannot make a child pid namespace (root and unshare are needed): "
                        + new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void anAnswererInAChildNamespaceCannotConfirmOrDismissTheHostsServers() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        List<ServeProcess> hostServers = new ArrayList<>();
        try {
            for (String profile : List.of("prgs-author", "prgs-reviewer")) {
                hostServers.add(ServeProcess.start(registry, profile, Map.of("GITEA_MCP_COHORT_ID", "host")));
            }
            List<RegistryRow> rows = TestFleets.awaitRunningRows(registry, 2);
            String hostNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            rows.forEach(row -> assertEquals(hostNamespace, row.pidNamespace(), "each server records its namespace"));

            JsonNode fromChild = assess(CHILD_NAMESPACE, registry);

            assertNotEquals(hostNamespace, fromChild.at("/observation/pid_namespace").asText());
            assertFalse(fromChild.get("mutation_gate_satisfied").asBoolean());
            assertFalse(fromChild.get("inventory_complete").asBoolean());
            assertTrue(codes(fromChild).contains("pid_namespace_mismatch"), fromChild.toString());
            assertEquals(0, fromChild.get("stale_registrations").size(), "never read as exited: " + fromChild);
            assertEquals(List.of("other_pid_namespace", "other_pid_namespace"),
                    reasons(fromChild.get("unverified_registrations")));

            JsonNode fromHost = assess(List.of(), registry);
            assertEquals(hostNamespace, fromHost.at("/observation/pid_namespace").asText());
            assertEquals(2, fromHost.get("running_member_count").asInt(), "the host confirms its own: " + fromHost);
            assertFalse(codes(fromHost).contains("pid_namespace_mismatch"), fromHost.toString());
        } finally {
            for (ServeProcess server : hostServers) {
                server.close();
            }
        }
    }

    @Test
    void aServerInAChildNamespaceRecordsItAndTheHostCannotCountIt() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        try (ServeProcess child = ServeProcess.startUnder(CHILD_NAMESPACE, registry, "prgs-controller",
                Map.of("GITEA_MCP_COHORT_ID", "child"))) {
            RegistryRow row = TestFleets.awaitRunningRows(registry, 1).get(0);
            String hostNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            assertTrue(row.pidNamespace() != null && row.pidNamespace().startsWith("pid:["), String.valueOf(row));
            assertNotEquals(hostNamespace, row.pidNamespace());

            JsonNode fromHost = assess(List.of(), registry);

            assertFalse(fromHost.get("mutation_gate_satisfied").asBoolean());
            assertTrue(codes(fromHost).contains("pid_namespace_mismatch"), fromHost.toString());
            assertEquals(List.of("other_pid_namespace"), reasons(fromHost.get("unverified_registrations")));
            assertEquals(0, fromHost.get("running_member_count").asInt());
            assertEquals(0, fromHost.get("stale_registrations").size(), fromHost.toString());
            child.closeStdinAndDrain();
            assertTrue(child.exitsWithin(TimeUnit.SECONDS.toMillis(60)), "the child's server leaves with its client");
        }
    }

    /**
     * {@code fleet host} in a child pid namespace that still sees the host's {@code /proc} can list no
     * process of its own: zero strays found there is no all-clear, so it exits 1 (as for strays) and says why.
     */
    @Test
    void fleetHostWithAnotherNamespacesProcTableIsNoAllClear() throws Exception {
        List<String> command = new ArrayList<>(List.of("unshare", "--pid", "--fork", FleetJar.javaBinary()));
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-jar", FleetJar.JAR.toString(), "host", "--format", "json"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        TestFleets.isolate(builder.environment());
        builder.environment().put("HOME", dir.toString());
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path out = dir.resolve("host.json");
        Process process = builder.redirectOutput(out.toFile()).redirectError(dir.resolve("host.err").toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "fleet host finished");

        JsonNode report = JSON.readTree(Files.readString(out));
        assertEquals(1, process.exitValue(), report.toString());
        assertEquals(0, report.get("strays").asInt());
        assertTrue(report.get("warnings").toString().contains("another pid namespace"), report.toString());
    }

    private static JsonNode assess(List<String> wrapper, Path registry) throws Exception {
        List<String> command = new ArrayList<>(wrapper);
        command.add(FleetJar.javaBinary());
        // As pid 1 of a namespace, two such JVMs at once (two builds on one host) share the name of
        // their perf-data file, and the JVM's warning about it must not reach the JSON on stdout; without
        // a perf-data file (as the launcher runs every verb) there is no warning on stderr either.
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-XX:-UsePerfData", "-jar", FleetJar.JAR.toString(), "assess", "--registry",
                registry.toString(), "--roster", TestFleets.roster(registry).toString(), "--format", "json"));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path out = Files.createTempFile(registry.getParent(), "assess", ".json");
        Path err = Files.createTempFile(registry.getParent(), "assess", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("fleet assess did not finish: " + Files.readString(err));
        }
        assertEquals(1, process.exitValue(), "the gate is closed: " + Files.readString(err));
        assertEquals("", Files.readString(err), "nothing on stderr");
        return JSON.readTree(Files.readString(out));
    }


    private static List<String> codes(JsonNode verdict) {
        List<String> codes = new ArrayList<>();
        verdict.get("blocked_reasons").forEach(reason -> codes.add(reason.get("code").asText()));
        return codes;
    }

    private static List<String> reasons(JsonNode flagged) {
        List<String> reasons = new ArrayList<>();
        flagged.forEach(entry -> reasons.add(entry.get("reason").asText()));
        return reasons;
    }

    private static List<String> add(List<String> wrapper, String... command) {
        List<String> all = new ArrayList<>(wrapper);
        all.addAll(List.of(command));
        return all;
    }
}
