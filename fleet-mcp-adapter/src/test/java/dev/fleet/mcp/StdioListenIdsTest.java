package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A plain stdio server's 2026-07-28 listens are named by their ids compared by value (the contract, §12.1),
 * as the relay names requests: {@code notifications/cancelled} of {@code 7.0} or {@code 9e0} ends the listen
 * {@code 7} or {@code 9}. They were once compared as JSON trees, where {@code 7} and {@code 7.0} differ,
 * so such a cancellation left the listen (and its background assessment) open.
 */
class StdioListenIdsTest {

    @TempDir
    Path temp;

    @Test
    void aCancellationNamesItsListenByValue() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send(listen(7));
            server.send(listen(9));
            server.send(listen(11));
            server.send(cancel("7.0"));
            server.send(cancel("9e0"));
            server.send(cancel("11.5")); // no listen of that id: nothing ends
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");
            server.response(JsonNodeFactory.instance.textNode("after"));
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF ends the server");

            List<Long> ended = new ArrayList<>();
            for (String line : server.stdoutLines()) {
                JsonNode message = new ObjectMapper().readTree(line);
                if (message.has("result") && message.path("id").isNumber()) {
                    ended.add(message.path("id").asLong());
                }
            }
            assertEquals(List.of(11L), ended, () -> "only the listen left open gets its final result at EOF: "
                    + server.stdoutLines());
        }
    }

    private static String cancel(String requestId) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + requestId + "}}";
    }

    private static String listen(long id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"subscriptions/listen\",\"params\":{"
                + "\"notifications\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"by-value\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    }
}
