package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every answer the child wrote before it exited, and every answer of the member's own under way,
 * reaches the client before {@code fleet} exits (the contract, §12.1), at the ending that races most:
 * the client sends its requests and closes stdin at once; the child answers them as it reads them and
 * exits at its own EOF, while the member answers a fleet tool call itself. Fifty members in a row: a
 * member that stopped its own answers at once lost that one in 9 runs of 10 (measured before it let
 * them finish), and one that exits without draining the child's stdout may lose the child's last.
 */
class RelayAnswersAtEndIT {

    private static final int RUNS = 50;
    private static final int REQUESTS = 20;
    /** The member's own request, sent last: the fleet tool that answers fastest. */
    private static final String OWN_REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":" + (REQUESTS + 1) + ",\"method\":"
            + "\"tools/call\",\"params\":{\"name\":\"gitea_get_runtime_context\",\"arguments\":{}}}\n";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyAnswerReachesTheClientInFiftyRunsInARow() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        Path roster = TestFleets.roster(registry);
        // The child answers each ping as it reads it (sed, unbuffered), and exits at EOF.
        List<String> child = List.of("sed", "-u", "s/\"method\":\"ping\"/\"result\":{}/");
        List<String> failures = new ArrayList<>();
        for (int run = 1; run <= RUNS; run++) {
            try (ServeProcess member = ServeProcess.startWith(smallJvm(), registry, roster, "prgs-author", Map.of(),
                    concat("--", child))) {
                StringBuilder requests = new StringBuilder();
                for (int id = 1; id <= REQUESTS; id++) {
                    requests.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"method\":\"ping\"}\n");
                }
                requests.append(OWN_REQUEST);
                member.sendBytes(requests.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                member.closeStdin();
                assertTrue(member.awaitExit(60, TimeUnit.SECONDS), member.diagnosis(20));
                assertEquals(0, member.process().exitValue(), member.diagnosis(20));
                List<Integer> answered = new ArrayList<>();
                for (String line : member.stdoutLines()) {
                    var message = JSON.readTree(line);
                    if (message.has("result")) {
                        answered.add(message.get("id").asInt());
                    }
                }
                if (!answered.stream().sorted().toList().equals(java.util.stream.IntStream.rangeClosed(1, REQUESTS + 1).boxed().toList())) {
                    failures.add("run " + run + ": answers " + answered + "; " + member.diagnosis(10));
                }
            }
        }
        assertEquals(List.of(), failures, failures.size() + " of " + RUNS + " runs lost answers");
    }

    /**
     * The client asks for the tools and leaves at once; the child, which knows no tools/list, says so
     * (-32601) only once the member has closed its stdin, ending (well within the second it waits). That
     * answer was under way, and the member answers the list in the child's stead: the client gets the
     * fleet's tools. Before, the member's own answers had stopped at the end's start, so the list was
     * lost and a stack trace logged.
     */
    @Test
    void aListTheChildDoesNotKnowIsAnsweredThoughItsErrorComesOnlyAtTheEnd() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        String child = "read line; read rest; sleep 0.2; echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,"
                + "\"message\":\"Method not found\"}}'";
        try (ServeProcess member = ServeProcess.start(registry, "prgs-author", Map.of(), "--", "bash", "-c", child)) {
            TestFleets.awaitRunningRows(registry, 1); // registered: the end below is the member's whole end
            member.sendBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            member.closeStdin();
            assertTrue(member.awaitExit(60, TimeUnit.SECONDS), member.diagnosis(20));
            assertEquals(0, member.process().exitValue(), member.diagnosis(20));
            List<String> lines = member.stdoutLines();
            assertEquals(1, lines.size(), lines + "; " + member.diagnosis(20));
            var answer = JSON.readTree(lines.get(0));
            assertEquals(1, answer.path("id").asInt(), lines.get(0));
            assertTrue(answer.path("result").path("tools").findValuesAsText("name")
                    .contains("gitea_assess_fleet_inventory"), lines.get(0));
            assertTrue(!member.stderrText().contains("Exception"), member.diagnosis(20));
        }
    }

    /** A small JVM with the jar's class-data archive when the package step made one, as the launcher starts it. */
    private static List<String> smallJvm() {
        List<String> options = new ArrayList<>(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-XX:-UsePerfData", "-Xshare:auto"));
        if (Files.isRegularFile(FleetJar.ARCHIVE)) {
            options.add("-XX:SharedArchiveFile=" + FleetJar.ARCHIVE);
        }
        return options;
    }

    private static String[] concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all.toArray(String[]::new);
    }
}
