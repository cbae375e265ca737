package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.ServeProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that closes stdin right after a request (a script piping one request in, a client leaving) is
 * owed an answer all the same. The server answers what is ready within its 2 s, and before, a request
 * whose assessment took longer got nothing: stdout ended with no line for it, in either era, and the
 * client waited on an answer that never came. Each now gets one line, its answer or an error.
 */
class UnansweredAtStopIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Running rows of dead pids beside the server's own: each assessment then takes seconds, not milliseconds. */
    private static final int CROWD = 60_000;
    private static final String MODERN_META = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"fleet-test\",\"version\":\"1\"}}";

    @TempDir
    Path dir;

    @Test
    void aRequestStillUnderWayWhenStdinClosesIsAnsweredOnceInEitherEra() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of())) {
            server.initialize();
            server.callTool(2, "gitea_get_runtime_context"); // answered once the server's own row is written
            crowd(registry);

            server.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"gitea_assess_fleet_inventory\"}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"_meta\":" + MODERN_META
                    + ",\"name\":\"gitea_assess_fleet_inventory\"}}");
            server.closeStdin();

            assertTrue(server.awaitExit(4, TimeUnit.SECONDS), "the server exits after EOF; " + server.diagnosis(20));
            assertEquals(0, server.process().exitValue(), server.diagnosis(20));
            for (int id : new int[] {3, 4}) {
                List<JsonNode> answers = answersTo(server.stdoutLines(), id);
                assertEquals(1, answers.size(), "request " + id + " is answered exactly once: " + answers
                        + "; " + server.diagnosis(20));
            }
        }
    }

    /** Adds {@value #CROWD} running rows like the server's own, of pids that are not alive. */
    private static void crowd(Path registry) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
                Statement statement = connection.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet info = statement.executeQuery("PRAGMA table_info(mcp_server_runtimes)")) {
                while (info.next()) {
                    columns.add(info.getString("name"));
                }
            }
            List<String> values = columns.stream().map(column -> switch (column) {
                case "runtime_id" -> "'crowd-' || n.i";
                case "pid" -> "3000000 + n.i";
                default -> "r." + column;
            }).toList();
            statement.execute("PRAGMA busy_timeout = 30000");
            statement.executeUpdate("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + CROWD
                    + ") INSERT INTO mcp_server_runtimes (" + String.join(", ", columns) + ") SELECT "
                    + String.join(", ", values) + " FROM n, (SELECT * FROM mcp_server_runtimes LIMIT 1) r");
        }
    }

    private static List<JsonNode> answersTo(List<String> lines, int id) throws Exception {
        List<JsonNode> answers = new ArrayList<>();
        for (String line : lines) {
            JsonNode message = JSON.readTree(line);
            if (message.path("id").asInt(-1) == id && (message.has("result") || message.has("error"))) {
                answers.add(message);
            }
        }
        return answers;
    }
}
