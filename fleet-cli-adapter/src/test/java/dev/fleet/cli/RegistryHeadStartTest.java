package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SQLite driver gets its head start only where a SQLite registry will be read first: a one-shot
 * reading verb, not asked for its help or version, and no PostgreSQL registry named.
 */
class RegistryHeadStartTest {

    private static final String URL = "postgresql://fleet@db.example:5432/fleet";

    @Test
    void aVerbThatReadsARegistryFirstGetsIt() {
        for (List<String> args : List.of(List.of("assess"), List.of("assess", "--format", "json"), List.of("watch"),
                List.of("wait", "--for", "gate"), List.of("dashboard", "--port", "0"), List.of("registry", "list"),
                List.of("registry", "migrate", "--registry", "/tmp/x.sqlite3"), List.of("assess", "--registry=/srv/r"))) {
            assertTrue(RegistryHeadStart.wanted(Map.of(), args.toArray(String[]::new)), String.join(" ", args));
        }
    }

    @Test
    void anyOtherCommandLineDoesNot() {
        for (List<String> args : List.of(List.<String>of(), List.of("serve", "--profile", "prgs-author"), List.of("processes"),
                List.of("roster"), List.of("demo"), List.of("mcp-config"), List.of("completion", "bash"), List.of("help"),
                List.of("--help"), List.of("--format", "json", "assess"), List.of("asses"), List.of("assess", "--help"),
                List.of("assess", "-h"), List.of("registry", "list", "--version"), List.of("wait", "-V"),
                List.of("assess", "--registry", URL), List.of("registry", "migrate", "--registry=" + URL),
                List.of("watch", "--registry", " POSTGRESQL://fleet@db/fleet"))) {
            assertFalse(RegistryHeadStart.wanted(Map.of(), args.toArray(String[]::new)), String.join(" ", args));
        }
    }

    @Test
    void aPostgresRegistryFromTheEnvironmentNeedsNoSqliteDriverUnlessTheCommandLineNamesAFile() {
        assertFalse(RegistryHeadStart.wanted(Map.of("FLEET_REGISTRY", URL), "assess"));
        assertTrue(RegistryHeadStart.wanted(Map.of("FLEET_REGISTRY", "/srv/fleet/control_plane.sqlite3"), "assess"));
        assertTrue(RegistryHeadStart.wanted(Map.of("FLEET_REGISTRY", URL), "assess", "--registry", "/srv/r.sqlite3"));
        assertTrue(RegistryHeadStart.wanted(Map.of("FLEET_REGISTRY", URL), "watch", "--registry=/srv/r.sqlite3"));
    }

    @Test
    void onlyAWantedHeadStartStartsAThreadWhichEndsAndIsJoined() {
        RegistryHeadStart none = RegistryHeadStart.begin(Map.of(), "processes");
        assertFalse(none.begun());
        assertFalse(none.running());
        none.finish();

        RegistryHeadStart started = RegistryHeadStart.begin(Map.of(), "assess");
        assertTrue(started.begun());
        // finish() waits a second at most; on a loaded host the driver may take longer to load.
        for (int second = 0; second < 120 && started.running(); second++) {
            started.finish();
        }
        assertFalse(started.running(), "the head start ended: the driver loaded, or failed, and it stopped");
    }
}
