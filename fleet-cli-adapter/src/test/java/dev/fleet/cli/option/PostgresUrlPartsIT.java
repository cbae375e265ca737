package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.registry.postgresql.LocalPostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 45: a database name that smuggles JDBC parameters in, percent-encoded, once reached the driver
 * as parameters (the reader's {@code readOnly} overridden, its timeouts switched off, a class named for
 * the driver to load). Every verb that takes a registry refuses such a URL, from {@code --registry} or
 * {@code FLEET_REGISTRY}, as a usage error (one line, exit 2) before it connects: the database, real
 * and reachable, is left without so much as the registry table.
 */
class PostgresUrlPartsIT {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    @RegisterExtension
    static final LocalPostgresServer POSTGRES = new LocalPostgresServer();

    @ParameterizedTest
    @ValueSource(strings = {"%3FreadOnly%3Dfalse", "%3FsocketTimeout%3D0%26connectTimeout%3D0",
        "%3FsocketFactory%3Dorg.example.NamedByTheCaller"})
    void parametersInTheDatabaseNameAreRefusedByEveryVerb(String smuggled) throws Exception {
        String database = "smuggled_" + DATABASES.incrementAndGet();
        String url = POSTGRES.createDatabase(database) + smuggled;

        List<FleetJar.Run> runs = List.of(
                FleetJar.run("assess", "--registry", url),
                FleetJar.run(Map.of("FLEET_REGISTRY", url), "assess"),
                FleetJar.run("registry", "list", "--registry", url),
                FleetJar.run("registry", "migrate", "--registry", url),
                FleetJar.run(Map.of("FLEET_REGISTRY", url), "registry", "migrate"),
                FleetJar.run("serve", "--profile", "prgs-author", "--registry", url));

        assertAll(runs.stream().<Executable>map(run -> () -> assertRefused(run, smuggled)));
        try (Connection connection = POSTGRES.connect(database); Statement statement = connection.createStatement();
                ResultSet tables = statement.executeQuery("SELECT count(*) FROM pg_catalog.pg_tables "
                        + "WHERE schemaname = 'public'")) {
            tables.next();
            assertEquals(0, tables.getInt(1), "nothing connected to migrate or register");
        }
    }

    /**
     * Issue 48: {@code postgres://} is the same scheme as {@code postgresql://} (libpq takes both), in any case,
     * from {@code --registry} or {@code FLEET_REGISTRY}, for every verb; each names the registry in its one
     * spelling. The help says so.
     */
    @Test
    void thePostgresSchemeIsTheSameRegistryForEveryVerbAndTheHelpSaysSo() throws Exception {
        String canonical = POSTGRES.createDatabase("short_scheme");
        String shortScheme = canonical.replace("postgresql://", "postgres://");
        String shouted = canonical.replace("postgresql://", "POSTGRES://");

        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", shortScheme);
        FleetJar.Run list = FleetJar.run(Map.of("FLEET_REGISTRY", shortScheme), "registry", "list");
        FleetJar.Run assess = FleetJar.run("assess", "--registry", shouted, "--format", "json");
        FleetJar.Run fromEnvironment = FleetJar.run(Map.of("FLEET_REGISTRY", shortScheme), "assess", "--format", "json");
        FleetJar.Run help = FleetJar.run("assess", "--help");

        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertEquals("registry " + canonical + " at schema version 7\n", migrate.stdout());
        assertEquals(0, list.exitCode(), list.stderr());
        assertTrue(list.stdout().contains("0 rows in " + canonical), list.stdout());
        for (FleetJar.Run run : List.of(assess, fromEnvironment)) {
            assertEquals(1, run.exitCode(), run.stderr()); // no fleet runs: missing members
            assertTrue(run.stdoutJson().get("registry").get("readable").asBoolean(), run.stdout());
            assertEquals(canonical, run.stdoutJson().get("observation").get("registry_path").asText());
        }
        assertTrue(help.stdout().contains("postgres:// too"), help.stdout());
    }

    private static void assertRefused(FleetJar.Run run, String smuggled) {
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: ") && run.stderr().contains("database name")
                && run.stderr().contains(smuggled), run.stderr());
        assertTrue(!run.stderr().contains("Exception") && !run.stderr().contains("\tat "), run.stderr());
        assertEquals("", run.stdout());
    }
}
