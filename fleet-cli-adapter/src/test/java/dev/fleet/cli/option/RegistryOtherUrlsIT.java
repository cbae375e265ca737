package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A registry named by a URL of a kind fleet does not read (a JDBC URL, as a Java programmer writes one, or a
 * {@code sqlite:} or {@code file:} URL) is a usage error naming the form fleet reads, from {@code --registry} or
 * {@code FLEET_REGISTRY}, for every verb: taken as a file's path it named folders {@code jdbc:postgresql:} and
 * the like, and {@code assess} answered "registry missing" (exit 1). The refusal echoes the scheme only, never
 * the rest, which may hold a password.
 */
class RegistryOtherUrlsIT {

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://127.0.0.1:1/db?password=hunter2", "sqlite:///tmp/hunter2.sqlite3",
        "file:///tmp/hunter2.sqlite3", "MySQL://root:hunter2@127.0.0.1/db"})
    void isAUsageErrorForEveryVerb(String url) {
        List<FleetJar.Run> runs = List.of(
                FleetJar.run("assess", "--registry", url),
                FleetJar.run(Map.of("FLEET_REGISTRY", url), "assess"),
                FleetJar.run("registry", "migrate", "--registry", url),
                FleetJar.run(Map.of("FLEET_REGISTRY", url), "registry", "list"),
                FleetJar.run("serve", "--profile", "prgs-author", "--registry", url));
        assertAll(runs.stream().<Executable>map(run -> () -> {
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals("", run.stdout());
            assertEquals(1, run.stderrLines().size(), run.stderr());
            assertTrue(run.stderr().startsWith("fleet: ") && run.stderr().contains(" is no registry fleet reads: "
                    + "a shared one is postgresql://USER@HOST:PORT/DB"), run.stderr());
            assertFalse(run.stderr().contains("hunter2"), run.stderr());
        }));
    }
}
