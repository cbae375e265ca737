package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registries built to hang or flood the CLI, and the migration's side file: each verb answers with
 * a reason and a one-line message of its own, and a clean migration leaves nothing beside the file.
 */
class HostileRegistriesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> COLUMNS = List.of("runtime_id", "namespace", "profile", "role", "remote",
            "org", "repo", "repository_root", "pid", "cohort_id", "cohort_source", "client_provenance", "boot_id",
            "process_started_at", "startup_head", "transport", "status", "registered_at", "last_heartbeat_at",
            "stopped_at", "pid_namespace");

    @TempDir
    Path dir;

    @Test
    void anEndlessViewIsAnIoErrorWithADetailForAssessListAndMigrate() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        execute(registry, "CREATE VIEW mcp_server_runtimes AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                + "SELECT i + 1 FROM n) SELECT " + String.join(", ", COLUMNS.stream()
                        .map(column -> (column.equals("pid") ? "i" : "'x'") + " AS " + column).toList())
                + " FROM n WHERE i < 0");

        FleetJar.Run assess = FleetJar.run("assess", "--registry", registry.toString(), "--format", "json");
        assertEquals(1, assess.exitCode(), assess.stderr());
        JsonNode verdict = JSON.readTree(assess.stdout());
        assertEquals("io_error", verdict.at("/registry/reason").asText());
        assertTrue(verdict.toString().contains("took longer than"), verdict.toString());

        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", registry.toString(), "--status", "running");
        assertEquals(1, list.exitCode(), list.stderr());
        assertEquals(1, list.stderrLines().size(), list.stderr());
        assertTrue(list.stderr().contains("io_error (reading mcp_server_runtimes took longer than"), list.stderr());

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(2, migrate.exitCode());
        assertEquals(1, migrate.stderrLines().size(), "one line, no Liquibase stack trace: " + migrate.stderr());
        assertTrue(migrate.stderr().contains("is a view, not a table"), migrate.stderr());
    }

    @Test
    void migrateSaysNotASqliteDatabaseAndACleanMigrationLeavesNoLockFile() throws Exception {
        Path notADatabase = Files.writeString(dir.resolve("notes.sqlite3"), "a shopping list\n".repeat(40));
        FleetJar.Run refused = FleetJar.run("registry", "migrate", "--registry", notADatabase.toString());
        assertEquals(2, refused.exitCode());
        assertEquals(1, refused.stderrLines().size(), refused.stderr());
        assertTrue(refused.stderr().contains("not a SQLite database"), refused.stderr());
        assertFalse(refused.stderr().contains("ConnectionCallable"), refused.stderr());

        Path registry = dir.resolve("registry.sqlite3");
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertFalse(Files.exists(dir.resolve("registry.sqlite3.migration-lock")), "lock file left behind");
    }

    @Test
    void aLinkAtTheLockPathIsRefusedAndItsTargetKept() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createSymbolicLink(dir.resolve("registry.sqlite3.migration-lock"), victim);

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());

        assertEquals(2, migrate.exitCode());
        assertEquals(1, migrate.stderrLines().size(), migrate.stderr());
        assertEquals("precious\n", Files.readString(victim));
    }

    private static void execute(Path file, String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
