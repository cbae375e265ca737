package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.Timestamps;
import dev.fleet.testing.MarkerProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pid that another tool stored as anything but an INTEGER (SQLite keeps each value's storage class
 * in a column without a type) names no process: {@code pid_invalid}, whatever its digits, and never a
 * running member, even when a live server process has exactly that number. The same row with the pid
 * stored as an INTEGER is that live member, so each case fails if the pid were believed.
 */
class PidStorageClassIT {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "pid stored as {0}")
    @ValueSource(strings = {"TEXT", "TEXT_WITH_SPACES", "REAL", "BLOB", "INTEGER"})
    void onlyAPidStoredAsAnIntegerNamesTheLiveServer(String storage) throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        Path roster = TestFleets.roster(registry, "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", "
                + "\"role\": \"author\"}", "roster.json");
        try (MarkerProcess server = MarkerProcess.servingRegistry(registry, "prgs-author")) {
            long pid = server.process().pid();
            String stored = switch (storage) {
                case "TEXT" -> "'" + pid + "'";
                case "TEXT_WITH_SPACES" -> "' " + pid + " '";
                case "REAL" -> pid + ".0";
                case "BLOB" -> "CAST('" + pid + "' AS BLOB)";
                default -> String.valueOf(pid);
            };
            writeForeignRow(registry, stored);

            FleetJar.Run assess = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                    roster.toString(), "--format", "json");

            JsonNode verdict = assess.stdoutJson();
            if (storage.equals("INTEGER")) {
                assertEquals(0, assess.exitCode(), assess.stdout() + assess.stderr());
                assertEquals(1, verdict.path("running_member_count").asInt(), assess.stdout());
                assertEquals(pid, verdict.at("/members/0/instances/0/pid").asLong(), assess.stdout());
                return;
            }
            assertEquals(1, assess.exitCode(), assess.stderr());
            assertEquals(List.of("rt-foreign pid_invalid"), malformed(verdict), assess.stdout());
            assertEquals(0, verdict.path("running_member_count").asInt(), assess.stdout());
            assertEquals("missing", verdict.at("/members/0/state").asText(), assess.stdout());
            assertEquals(0, verdict.path("stale_registrations").size(), assess.stdout());
            assertEquals(pid, verdict.at("/unregistered_processes/0/pid").asLong(), assess.stdout());
            assertEquals("no_registration", verdict.at("/unregistered_processes/0/reason").asText(), assess.stdout());
            assertEquals("malformed_registration", verdict.path("blocked_reason").asText(), assess.stdout());
        }
    }

    /** Another tool's table (its pid column has no type, so a value keeps its storage class) and its one row. */
    private static void writeForeignRow(Path registry, String storedPid) throws Exception {
        String now = Timestamps.format(Instant.now().plusSeconds(1));
        List<String> columns = new ArrayList<>(List.of("runtime_id TEXT", "namespace TEXT", "profile TEXT",
                "role TEXT", "remote TEXT", "org TEXT", "repo TEXT", "repository_root TEXT", "pid", "cohort_id TEXT",
                "cohort_source TEXT", "client_provenance TEXT", "boot_id TEXT", "startup_head TEXT", "transport TEXT",
                "status TEXT", "registered_at TEXT", "last_heartbeat_at TEXT", "stopped_at TEXT"));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE mcp_server_runtimes (" + String.join(", ", columns) + ")");
            statement.execute("INSERT INTO mcp_server_runtimes VALUES ('rt-foreign', 'gitea-author', 'prgs-author', "
                    + "'author', 'prgs', 'Scaled-Tech-Consulting', 'Gitea-Tools', '/checkout', " + storedPid
                    + ", 'cohort-1', 'env', 'client_managed', NULL, '" + TestFleets.HEAD + "', 'stdio', 'running', '"
                    + now + "', '" + now + "', NULL)");
        }
    }

    private static List<String> malformed(JsonNode verdict) {
        List<String> entries = new ArrayList<>();
        verdict.path("malformed_registrations")
                .forEach(entry -> entries.add(entry.path("runtime_id").asText() + " " + entry.path("reason").asText()));
        return entries;
    }
}
