package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plain stdio server answers what it was asked before stdin ended, in either era (the contract: each
 * pipelined request is answered once), as a one-shot client piping its requests does (a review sent three
 * 2026-07-28 requests and closed stdin: one was answered); and a listen whose filter the SDK refuses is the
 * client's bad params, -32602, with no stack trace on stderr (it was -32603 and a trace per request).
 */
class StdioAnswersAtEofTest {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"at-eof\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path temp;

    @Test
    void modernRequestsWrittenJustBeforeEofAreAnswered() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send(modern("\"warm\"", "server/discover", "")); // the server is up and has answered once
            server.response(JsonNodeFactory.instance.textNode("warm"));

            server.send(modern("1", "server/discover", ""));
            server.send(modern("2", "tools/list", ""));
            server.send(modern("3", "resources/read", "\"uri\":\"fleet://verdict\","));
            server.send(modern("4", "tools/call", "\"name\":\"gitea_assess_fleet_inventory\",\"arguments\":{},"));
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF ends the server");

            assertEquals(List.of(1L, 2L, 3L, 4L), answeredIds(server), () -> "every request written before EOF is "
                    + "answered: " + server.stdoutLines());
        }
    }

    /**
     * A client that opens with {@code server/discover} is served in the 2026-07-28 revision (the contract, §13), its
     * {@code _meta} left out or not: answered in that revision's terms, never told to send {@code initialize} first.
     */
    @Test
    void aDiscoverWithoutItsMetaIsAnsweredInItsOwnRevision() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"server/discover\"}");
            JsonNode answer = server.response(7);
            assertFalse(answer.toString().contains("initialize"), answer.toString());
            assertTrue(answer.has("result") || answer.path("error").path("code").asInt() == -32602, answer.toString());
        }
    }

    @Test
    void requestsOf2025WrittenJustBeforeEofAreAnswered() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            server.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"gitea_assess_fleet_inventory\",\"arguments\":{}}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}");
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF ends the server");

            List<Long> answered = answeredIds(server);
            assertTrue(answered.containsAll(List.of(5L, 6L)), () -> "both answered: " + server.stdoutLines());
        }
    }

    @Test
    void aListenWithAFilterTheSdkRefusesIsInvalidParamsWithoutAStackTrace() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send(modern("5", "subscriptions/listen",
                    "\"notifications\":{\"resourceSubscriptions\":[\"fleet://verdict\"],\"\":true},"));
            JsonNode answer = server.response(5);
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF ends the server");

            assertEquals(-32602, answer.path("error").path("code").asInt(), answer::toString);
            String stderr = server.stderrText();
            assertFalse(stderr.contains("\tat "), () -> "no stack trace for a client's bad params:\n" + stderr);
        }
    }

    private static String modern(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{" + params + META + "}}";
    }

    private static List<Long> answeredIds(RawStdioServer server) throws Exception {
        List<Long> answered = new ArrayList<>();
        for (String line : server.stdoutLines()) {
            JsonNode message = new ObjectMapper().readTree(line);
            if (message.path("id").isNumber() && (message.has("result") || message.has("error"))) {
                answered.add(message.path("id").asLong());
            }
        }
        answered.sort(null);
        return answered;
    }
}
