package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.registry.postgresql.LocalPostgresServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code registry migrate} and {@code registry list} take a PostgreSQL URL exactly as they take a file,
 * on a real PostgreSQL the test starts: the table is created by the same changelog, listed read-only,
 * and a database that is silent, refuses the credentials or holds a table of the wrong shape is one
 * line on stderr with the verb's exit code (2 for migrate, 1 for list), never a stack trace.
 */
class RegistryOnPostgresIT {

    @RegisterExtension
    static final LocalPostgresServer POSTGRES = new LocalPostgresServer();

    @Test
    void migrateCreatesTheTableOnceThenListShowsItsRows() throws Exception {
        String url = POSTGRES.createDatabase("migrated");

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", url);
        FleetJar.Run again = FleetJar.run(Map.of("FLEET_REGISTRY", url), "registry", "migrate");
        FleetJar.Run empty = FleetJar.run("registry", "list", "--registry", url);

        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertEquals("registry " + url + " at schema version 7\n", migrate.stdout());
        assertEquals(0, again.exitCode(), again.stderr());
        assertEquals(migrate.stdout(), again.stdout(), "FLEET_REGISTRY names it as --registry does");
        assertEquals(0, empty.exitCode(), empty.stderr());
        assertTrue(empty.stdout().contains("0 rows in " + url), empty.stdout());

        try (Connection connection = POSTGRES.connect("migrated"); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO mcp_server_runtimes (runtime_id, namespace, profile, role, pid, "
                    + "cohort_source, status, registered_at, last_heartbeat_at) VALUES ('rt-pg-1', 'gitea-author', "
                    + "'prgs-author', 'author', 4242, 'unknown', 'stopped', '2026-07-28T02:00:00.000Z', "
                    + "'2026-07-28T02:00:00.000Z')");
        }
        FleetJar.Run text = FleetJar.run("registry", "list", "--registry", url);
        FleetJar.Run json = FleetJar.run("registry", "list", "--registry", url, "--format", "json", "--status",
                "stopped");

        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().contains("rt-pg-1") && text.stdout().contains("1 row in " + url), text.stdout());
        assertEquals(0, json.exitCode(), json.stderr());
        JsonNode document = json.stdoutJson();
        assertEquals(url, document.get("registry").asText());
        assertEquals(1, document.get("rows").size(), json.stdout());
        assertEquals(4242, document.get("rows").get(0).get("pid").asInt());
    }

    /**
     * Issue 48: {@code registry list} said whether a row of another host was alive by looking its pid up on this
     * host, where it names some unrelated process or none. Such a row is alive while its lease holds, by the
     * database's clock; a row of this host is still its pid; and {@code --wide} shows each row's host.
     */
    @Test
    void aRowOfAnotherHostIsAliveByItsLeaseAndWideShowsItsHost() throws Exception {
        String url = POSTGRES.createDatabase("across_hosts");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", url).exitCode());
        long alivePidHere = ProcessHandle.current().pid();
        try (Connection connection = POSTGRES.connect("across_hosts"); Statement statement = connection.createStatement()) {
            // A pid alive here, on a lapsed lease; a pid alive nowhere here, heartbeating now; this host's own row.
            statement.execute(running("rt-lapsed", alivePidHere, "host-elsewhere", "now() - interval '1 hour'"));
            statement.execute(running("rt-fresh", 4_194_999, "host-elsewhere", "now()"));
            statement.execute(running("rt-local", alivePidHere, "host-here", "now() - interval '1 hour'"));
        }
        Map<String, String> here = Map.of("FLEET_HOST_ID", "host-here");

        FleetJar.Run wide = FleetJar.run(here, "registry", "list", "--registry", url, "--wide");
        FleetJar.Run narrow = FleetJar.run(here, "registry", "list", "--registry", url);
        FleetJar.Run longLease = FleetJar.run(here, "registry", "list", "--registry", url, "--wide", "--lease", "2h");

        assertEquals(0, wide.exitCode(), wide.stderr());
        assertEquals(List.of("RUNTIME_ID", "NAMESPACE", "PROFILE", "PID", "HOST_ID", "ALIVE"),
                columns(wide, "RUNTIME_ID").subList(0, 6), wide.stdout());
        assertEquals(List.of(String.valueOf(alivePidHere), "host-elsewhere", "no"),
                columns(wide, "rt-lapsed").subList(3, 6), wide.stdout());
        assertEquals(List.of("4194999", "host-elsewhere", "yes"), columns(wide, "rt-fresh").subList(3, 6),
                wide.stdout());
        assertEquals(List.of(String.valueOf(alivePidHere), "host-here", "yes"), columns(wide, "rt-local").subList(3, 6),
                wide.stdout());
        assertEquals(0, narrow.exitCode(), narrow.stderr());
        assertEquals("no", columns(narrow, "rt-lapsed").get(4), narrow.stdout());
        assertEquals("yes", columns(narrow, "rt-fresh").get(4), narrow.stdout());
        assertEquals("yes", columns(longLease, "rt-lapsed").get(5), longLease.stdout() + longLease.stderr());
    }

    /** An INSERT of a running reconciler row with {@code heartbeat} (SQL) as its last heartbeat, in the contract's format. */
    private static String running(String runtimeId, long pid, String hostId, String heartbeat) {
        String at = "to_char((" + heartbeat + ") AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";
        return "INSERT INTO mcp_server_runtimes (runtime_id, namespace, profile, role, pid, cohort_source, status, "
                + "registered_at, last_heartbeat_at, host_id) VALUES ('" + runtimeId + "', 'gitea-reconciler', "
                + "'prgs-reconciler', 'reconciler', " + pid + ", 'unknown', 'running', " + at + ", " + at + ", '"
                + hostId + "')";
    }

    /** The whitespace-separated cells of the listing's line that starts with {@code first}. */
    private static List<String> columns(FleetJar.Run run, String first) {
        return run.stdout().lines().filter(line -> line.startsWith(first)).findFirst()
                .map(line -> List.of(line.trim().split("\\s+")))
                .orElseThrow(() -> new AssertionError("no line starts with " + first + ": " + run.stdout()));
    }

    @Test
    void aDatabaseThatNeverAnswersIsOneLineAndTheVerbsCode() throws Exception {
        // A listener that accepts into its backlog and never speaks: connected, then silence.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String url = "postgresql://fleet@127.0.0.1:" + silent.getLocalPort() + "/registry";

            FleetJar.Run migrate = FleetJar.run(Duration.ofSeconds(30), List.of(), Map.of(), "registry", "migrate",
                    "--registry", url);
            FleetJar.Run list = FleetJar.run(Duration.ofSeconds(30), List.of(), Map.of(), "registry", "list",
                    "--registry", url);

            assertOneLine(migrate, 2, "unreachable");
            assertOneLine(list, 1, "unreachable");
        }
    }

    @Test
    void refusedCredentialsAreOneLineAndTheVerbsCode() {
        String url = POSTGRES.createDatabase("guarded").replace("fleet@", "nobody_here@");

        assertOneLine(FleetJar.run("registry", "migrate", "--registry", url), 2, "access_denied");
        assertOneLine(FleetJar.run("registry", "list", "--registry", url), 1, "access_denied");
    }

    /**
     * A password in {@code $HOME/.pgpass} logs in, as it does for {@code psql}: the driver alone looks under the
     * account's home ({@code user.home}), which a scratch or container {@code HOME} is not. {@code PGPASSFILE}
     * still wins, and a file the driver never finds leaves the role refused.
     */
    @Test
    void aPasswordFileUnderHomeLogsInAsPsqlWould() throws Exception {
        String url = POSTGRES.createDatabase("pgpass_home").replace("fleet@", "homed@");
        POSTGRES.postgres().createGuardedRole("homed", "from-home");
        int port = POSTGRES.postgres().port();
        Path home = Files.createTempDirectory("fleet-pgpass-home");
        Path elsewhere = Files.createTempDirectory("fleet-pgpass-elsewhere");
        passwordFile(home.resolve(".pgpass"), "127.0.0.1:" + port + ":pgpass_home:homed:from-home\n");
        passwordFile(elsewhere.resolve("pgpass"), "127.0.0.1:" + port + ":pgpass_home:homed:wrong\n");

        FleetJar.Run fromHome = FleetJar.run(Map.of("HOME", home.toString()), "registry", "list", "--registry", url);
        FleetJar.Run overridden = FleetJar.run(Map.of("HOME", home.toString(), "PGPASSFILE",
                elsewhere.resolve("pgpass").toString()), "registry", "list", "--registry", url);

        // Logged in: the database has no table yet, which is what it then says.
        assertOneLine(fromHome, 1, "missing");
        assertOneLine(overridden, 1, "access_denied");
    }

    private static void passwordFile(Path file, String lines) throws Exception {
        Files.writeString(file, lines);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /**
     * Issue 45: a role that may connect but not read the table read as {@code missing}, and the action
     * sent the operator to a file's permissions. It is {@code access_denied}, and the action is about the
     * database role, for {@code assess} as for {@code registry list}.
     */
    @Test
    void aRoleWithoutSelectIsAccessDeniedWithAnActionAboutTheRole() throws Exception {
        String url = POSTGRES.createDatabase("no_select_granted");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", url).exitCode());
        POSTGRES.postgres().admin("CREATE ROLE fleet_reader LOGIN");
        POSTGRES.postgres().admin("GRANT CONNECT ON DATABASE no_select_granted TO fleet_reader");
        String denied = url.replace("fleet@", "fleet_reader@");

        FleetJar.Run assess = FleetJar.run("assess", "--registry", denied, "--format", "json");
        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", denied);

        assertEquals(1, assess.exitCode(), assess.stderr());
        JsonNode verdict = assess.stdoutJson();
        assertEquals("access_denied", verdict.get("registry").get("reason").asText(), assess.stdout());
        JsonNode blocked = verdict.get("blocked_reasons").get(0);
        assertEquals("registry_unreadable", blocked.get("code").asText());
        String action = blocked.get("action").asText();
        assertTrue(action.contains("role") && action.contains("GRANT SELECT ON mcp_server_runtimes"), action);
        assertTrue(!action.contains("file"), action);
        assertOneLine(list, 1, "access_denied");
        assertTrue(list.stderr().contains("GRANT SELECT ON mcp_server_runtimes"), list.stderr());
    }

    @Test
    void aTableOfTheWrongShapeIsRefusedNamingItsMissingColumnsAndLeftAsItWas() throws Exception {
        String url = POSTGRES.createDatabase("foreign_shape");
        try (Connection connection = POSTGRES.connect("foreign_shape"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, namespace TEXT, pid INTEGER)");
        }

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", url);
        FleetJar.Run list = FleetJar.run("registry", "list", "--registry", url);

        assertOneLine(migrate, 2, "lacks columns");
        assertTrue(migrate.stderr().contains("registered_at") && migrate.stderr().contains("status"), migrate.stderr());
        assertOneLine(list, 1, "schema_missing");
        try (Connection connection = POSTGRES.connect("foreign_shape"); Statement statement = connection.createStatement();
                var columns = statement.executeQuery("SELECT count(*) FROM information_schema.columns "
                        + "WHERE table_name = 'mcp_server_runtimes'")) {
            columns.next();
            assertEquals(3, columns.getInt(1), "nothing was added to the foreign table");
        }
    }

    private static void assertOneLine(FleetJar.Run run, int exitCode, String says) {
        assertEquals(exitCode, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: ") && run.stderr().contains(says), run.stderr());
        assertTrue(!run.stderr().contains("Exception") && !run.stderr().contains("\tat "), run.stderr());
        assertEquals("", run.stdout());
    }
}
