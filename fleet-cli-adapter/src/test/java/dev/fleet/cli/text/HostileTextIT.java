package dev.fleet.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text from outside (roster files, registry rows, command lines) never reaches a terminal as
 * something it obeys: no control character, no bidirectional control, no line separator in text
 * output; every error one line; JSON escapes C0, DEL and C1 itself.
 */
class HostileTextIT {

    /** ESC and CSI sequences, a C1 CSI, DEL, bidi overrides and isolates, line breaks of every kind. */
    private static final String HOSTILE = "\u001b[2J\u001b[31m\u009b2J\u007f\u202eevil\u202c\u2066x\u2069\u2028"
            + "\nfleet: GATE SATISFIED\r";
    /** What a terminal would obey or reorder, apart from the line feed that ends each line. */
    private static final Pattern UNSAFE = Pattern.compile(
            "[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** JSON text holding a raw control character (C0, DEL or C1) instead of its escape. */
    private static final Pattern RAW_CONTROL = Pattern.compile("[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f]");

    @TempDir
    Path dir;

    private static void assertSafe(String text) {
        assertFalse(UNSAFE.matcher(text).find(), () -> "unsafe characters in:\n" + text.replaceAll(
                "[\\x00-\\x1f\\x7f-\\x9f\\u2028-\\u202e\\u2066-\\u2069]", "<?>"));
    }

    private static String json(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r")
                .replace("\u001b", "\\u001b") + "\"";
    }

    @Test
    void aRosterKeyOrValueIsShownNotObeyedAndErrorsStayOneLine() throws Exception {
        Path badKey = Files.writeString(dir.resolve("bad-key.json"), "{" + json(HOSTILE) + ": 1}");
        FleetJar.Run error = FleetJar.run("roster", "--roster", badKey.toString());
        assertEquals(2, error.exitCode(), error.stderr());
        assertEquals(1, error.stderrLines().size(), error.stderr());
        assertSafe(error.stderr().stripTrailing());

        Path roster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": " + json(HOSTILE)
                + ", \"org\": \"o\", \"repo\": \"r\"}, \"members\": [{\"namespace\": " + json("ns" + HOSTILE)
                + ", \"profile\": \"prgs-author\", \"role\": \"r\"}], \"server_process_patterns\": ["
                + json("fleet-never-" + UUID.randomUUID() + "\u202e") + "]}");
        FleetJar.Run text = FleetJar.run("roster", "--roster", roster.toString());
        assertEquals(0, text.exitCode(), text.stderr());
        assertSafe(text.stdout());
        assertTrue(text.stdout().contains("\\x1b[2J"), text.stdout());

        FleetJar.Run json = FleetJar.run("roster", "--roster", roster.toString(), "--format", "json");
        assertEquals(0, json.exitCode(), json.stderr());
        assertFalse(RAW_CONTROL.matcher(json.stdout().stripTrailing()).find(), json.stdout());
        assertTrue(json.stdout().contains("\\u009b2J\\u007f"), json.stdout());
        assertEquals("ns" + HOSTILE, json.stdoutJson().get("members").get(0).get("namespace").asText());

        FleetJar.Run assess = FleetJar.run("assess", "--roster", roster.toString(), "--registry",
                dir.resolve("none.sqlite3").toString());
        assertEquals(1, assess.exitCode(), assess.stderr());
        assertSafe(assess.stdout());

        FleetJar.Run config = FleetJar.run("mcp-config", "--roster", roster.toString(), "--repository-root",
                TestFleets.repository(dir.resolve("r.sqlite3")).toString());
        assertEquals(0, config.exitCode(), config.stderr());
        assertFalse(RAW_CONTROL.matcher(config.stdout().replace("\n", "")).find(), config.stdout());
        assertTrue(config.stdout().contains("\\u009b2J\\u007f") || config.stdout().contains("\\u009b2J\\u007F"),
                config.stdout());

        // A path is outside text too: the roster's and the registry's, in fleet's own lines (the dashboard audit's 8).
        // ASCII controls: a JVM in the C locale (CI's) cannot name a path of other characters.
        Path odd = Files.createDirectories(dir.resolve("odd\u001b[2J\u007fredro"));
        Path oddRoster = Files.copy(roster, odd.resolve("roster.json"));
        String oddRegistry = odd.resolve("r.sqlite3").toString();
        FleetJar.Run oddAssess = FleetJar.run("assess", "--roster", oddRoster.toString(), "--registry", oddRegistry);
        assertEquals(1, oddAssess.exitCode(), oddAssess.stderr());
        assertTrue(oddAssess.stdout().contains("odd\\x1b[2J\\x7fredro/roster.json (--roster)"), oddAssess.stdout());
        assertSafe(oddAssess.stdout() + oddAssess.stderr());
        FleetJar.Run oddConfig = FleetJar.run("mcp-config", "--roster", oddRoster.toString(), "--registry", oddRegistry,
                "--repository-root", TestFleets.repository(dir.resolve("r.sqlite3")).toString(), "--server-command",
                "node /srv/server.js --profile {profile}");
        assertEquals(0, oddConfig.exitCode(), oddConfig.stderr());
        assertTrue(oddConfig.stderr().contains("odd\\x1b[2J\\x7fredro/r.sqlite3"), oddConfig.stderr());
        assertSafe(oddConfig.stderr());
        String patterns = oddConfig.stderrLines().stream().filter(line -> line.contains("\"server_process_patterns\": "))
                .findFirst().orElseThrow();
        JsonNode pasted = JSON.readTree("{" + patterns.substring(patterns.indexOf("\"server_process_patterns\"")) + "}");
        assertTrue(pasted.get("server_process_patterns").get(0).asText().matches("fleet-never-[0-9a-f-]+\u202e"),
                "the patterns line is JSON to paste, the roster's pattern whole: " + patterns);
    }

    @Test
    void registryRowsAndCommandLinesAreShownNotObeyed() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        String marker = "fleet-hostile-" + UUID.randomUUID();
        Path roster = TestFleets.roster(registry, "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", "
                + "\"role\": \"author\"}", "roster.json");
        // The roster's pattern, swapped for one that matches the hostile process below.
        Files.writeString(roster, Files.readString(roster).replaceFirst("\"server_process_patterns\": \\[.*\\]",
                "\"server_process_patterns\": [\"" + marker + "\"]"));
        new SqliteRegistryWriter(registry).register(Registration.builder().runtimeId("rt" + HOSTILE)
                .identity(new RosterMember("gitea-author" + HOSTILE, "prgs-author" + HOSTILE, "author"))
                .binding(Binding.DEFAULT).repositoryRoot("/checkout" + HOSTILE).pid(ProcessHandle.current().pid())
                .cohort("cohort" + HOSTILE, CohortSource.ENV)
                .clientProvenance(ClientProvenance.CLIENT_MANAGED).startupHead("head" + HOSTILE)
                .transport(Transport.STDIO).status(RegistrationStatus.RUNNING).registeredAt(Instant.now())
                .lastHeartbeatAt(Instant.now()).build(), Optional.empty());
        // A process whose command line carries the same text: argv[0] is whatever its starter says.
        Process hostile = new ProcessBuilder("bash", "-c", "exec -a \"$0\" sleep 300", marker + HOSTILE).start();
        try {
            Map<String, String> env = Map.of("FLEET_REGISTRY", registry.toString(), "FLEET_ROSTER", roster.toString());
            for (List<String> verb : List.of(List.of("registry", "list"), List.of("registry", "list", "--wide"),
                    List.of("processes"), List.of("assess"))) {
                FleetJar.Run text = FleetJar.run(env, verb.toArray(String[]::new));
                assertTrue(text.exitCode() <= 1, text.stderr());
                assertSafe(text.stdout());
                assertTrue(text.stdout().contains("\\x1b[2J"), verb + ":\n" + text.stdout());
                FleetJar.Run json = FleetJar.run(env, withJson(verb));
                assertFalse(RAW_CONTROL.matcher(json.stdout().stripTrailing()).find(), verb + ": " + json.stdout());
                assertTrue(json.stdout().contains("\\u001b[2J"), verb + ": " + json.stdout());
                // C1 survives into rows whatever the locale; into argv only under a UTF-8 one.
                assertTrue(verb.get(0).equals("processes") || json.stdout().contains("\\u009b2J\\u007f"),
                        verb + ": " + json.stdout());
            }
        } finally {
            hostile.destroy();
            hostile.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String[] withJson(List<String> verb) {
        List<String> args = new java.util.ArrayList<>(verb);
        args.remove("--wide");
        args.addAll(List.of("--format", "json"));
        return args.toArray(String[]::new);
    }
}
