package dev.fleet.cli.roster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.testing.MarkerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode entryFor(JsonNode listing, long pid) {
        for (JsonNode process : listing.get("processes")) {
            if (process.get("pid").asLong() == pid) {
                return process;
            }
        }
        return null;
    }

    @Test
    void listsAProcessThatLooksLikeAServerAsJson() throws Exception {
        try (MarkerProcess server = MarkerProcess.lookingLikeAServer()) {
            FleetJar.Run run = FleetJar.run("processes", "--format", "json");

            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode listing = JSON.readTree(run.stdout());
            assertTrue(listing.get("available").asBoolean());
            assertTrue(listing.get("boot_id").asText().matches("[0-9a-f-]{36}"));
            JsonNode entry = entryFor(listing, server.pid());
            assertTrue(entry != null, run.stdout());
            assertEquals(server.commandLine(), entry.get("command_line").asText());
            assertTrue(entry.get("matches_server").asBoolean());
            assertTrue(entry.get("started_at").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        }
    }

    @Test
    void theRosterDecidesWhatLooksLikeAServer(@TempDir Path dir) throws Exception {
        String widgetName = "widget-server-" + System.nanoTime();
        try (MarkerProcess widget = MarkerProcess.start(widgetName)) {
            Path roster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": \"r\", \"org\": "
                    + "\"o\", \"repo\": \"p\"}, \"members\": [{\"namespace\": \"n\", \"profile\": \"p\", \"role\": "
                    + "\"r\"}], \"server_process_patterns\": [\"" + widgetName + "\"]}");

            FleetJar.Run viaOption = FleetJar.run("processes", "--roster", roster.toString());
            FleetJar.Run viaEnv = FleetJar.run(Map.of("FLEET_ROSTER", roster.toString()), "processes", "--format", "json");
            FleetJar.Run byDefault = FleetJar.run("processes", "--format", "json");

            assertEquals(0, viaOption.exitCode(), viaOption.stderr());
            assertTrue(viaOption.stdout().contains(String.valueOf(widget.pid())), viaOption.stdout());
            assertTrue(viaOption.stdout().startsWith("host "), viaOption.stdout());
            assertTrue(viaOption.stdout().lines().findFirst().orElseThrow().endsWith("  1 server process"),
                    viaOption.stdout());
            assertTrue(entryFor(JSON.readTree(viaEnv.stdout()), widget.pid()) != null, viaEnv.stdout());
            assertEquals(null, entryFor(JSON.readTree(byDefault.stdout()), widget.pid()));
        }
    }

    @Test
    void anInvalidRosterIsExitTwo(@TempDir Path dir) throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), "{not json");
        FleetJar.Run run = FleetJar.run("processes", "--roster", roster.toString());
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertEquals("", run.stdout());
    }
}
