package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import dev.fleet.testing.MarkerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command line is written by whoever starts the process, so no argv may make an assessment hang
 * (issue 10 item 7): the roster's patterns meet every command line on the host through a
 * linear-time engine.
 */
class CraftedCommandLineIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Valid RE2, and exponential for a backtracking engine on a run of {@code a}s that fails to
     * match: {@code java.util.regex} tries 2^n ways through the counted group (Java 17 memoises
     * {@code (a+)+}-style loops, not this one). Anchored, so only a command line that starts with
     * {@code aa} is tried at all. Against the 40-character argv below it would run for hours.
     */
    static final String CATASTROPHIC_FOR_BACKTRACKING = "^(a|a){2,100}b";

    @TempDir
    Path dir;

    @Test
    void aCraftedArgvCannotHangAnAssessment() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        new SqliteRegistryWriter(registry).migrate();
        // The second pattern makes the crafted process a server, so the verdict proves that it was
        // matched against (the first pattern is tried first on every command line).
        Path roster = roster("\"" + CATASTROPHIC_FOR_BACKTRACKING + "\", \"^a+! 600$\"");

        try (MarkerProcess crafted = MarkerProcess.start("a".repeat(39) + "!")) {
            // FleetJar gives up after 60 s: only there to tell a hang from an answer.
            FleetJar.Run run = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                    roster.toString(), "--format", "json");

            assertEquals(1, run.exitCode(), run.stderr());
            JsonNode verdict = JSON.readTree(run.stdout());
            assertTrue(verdict.at("/process_listing/available").asBoolean(), run.stdout());
            assertTrue(StreamSupport.stream(verdict.get("unregistered_processes").spliterator(), false)
                    .anyMatch(process -> process.get("pid").asLong() == crafted.pid()), run.stdout());
        }
    }

    /**
     * A pattern RE2J 1.8 never finishes compiling (its case folding of U+1C80 loops for ever) is a roster
     * error, one line and exit 2, in seconds: it hung the verb before.
     */
    @Test
    void aPatternRe2jNeverFinishesCompilingIsRefusedInOneLine() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        new SqliteRegistryWriter(registry).migrate();
        Path roster = roster("\"fleet\\\\.jar serve\", \"(?i)\\\\x{1C80}\"");

        FleetJar.Run run = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString());

        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(1, run.stderr().lines().count(), run.stderr());
        assertTrue(run.stderr().contains("server_process_patterns[1]") && run.stderr().contains("did not finish compiling"),
                run.stderr());
    }

    /** A one-member roster whose server_process_patterns are {@code patterns}, JSON strings joined by commas. */
    private Path roster(String patterns) throws Exception {
        return Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": \"prgs\", "
                + "\"org\": \"Scaled-Tech-Consulting\", \"repo\": \"Gitea-Tools\"}, \"members\": [{\"namespace\": "
                + "\"gitea-author\", \"profile\": \"prgs-author\", \"role\": \"author\"}], "
                + "\"server_process_patterns\": [" + patterns + "]}");
    }
}
