package dev.fleet.mcp.stdio;

import static dev.fleet.mcp.stdio.TextReadingCount.INITIALIZE;
import static dev.fleet.mcp.stdio.TextReadingCount.INITIALIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The SDK's session on stdio's own line layer, in process: a real fleet server built on the
 * transport, stdin and stdout in memory. Each line is parsed once, by the gate; the SDK answers from
 * that parse and never reads a line's text; the end of stdin is told once.
 */
class StdioTransportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final AtomicInteger ends = new AtomicInteger();
    private final TextReadingCount mapper = new TextReadingCount();

    @Test
    void theSdkAnswersEveryRequestFromTheGatesOneParseAndNeverReadsALinesText() throws Exception {
        String stdin = String.join("\n", INITIALIZE, INITIALIZED,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"gitea_get_runtime_context\""
                        + ",\"arguments\":{}}}",
                "hello",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"gitea_get_runtime_context\""
                        + ",\"arguments\":[1]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"5\",\"method\":\"ping\"}") + "\n";
        McpSyncServer server = serve(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            Map<String, JsonNode> answers = awaitAnswers(6);

            assertEquals("fleet", answers.get("1").path("result").path("serverInfo").path("name").asText(),
                    answers::toString);
            assertEquals(2, answers.get("2").path("result").path("tools").size(), answers::toString);
            assertFalse(answers.get("3").path("result").path("isError").asBoolean(true), answers::toString);
            assertEquals(-32700, answers.get("null").path("error").path("code").asInt(), answers::toString);
            assertTrue(answers.get("4").path("result").path("isError").asBoolean(), "the tool's own refusal");
            assertTrue(answers.get("5").path("result").isObject(), answers::toString);
            assertEquals(0, mapper.reads(), "the SDK read a line's text: it was parsed twice");
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(10), () -> ends.get() > 0, "the end is told");
            assertEquals(1, ends.get(), "the end of stdin is told once");
        } finally {
            FleetMcpServer.closeQuietly(server);
        }
    }

    @Test
    void aReadErrorIsTheEndToo() throws Exception {
        McpSyncServer server = serve(TextReadingCount.gone());
        try {
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(10), () -> ends.get() > 0, "the end is told");
            assertEquals(1, ends.get());
            assertEquals("", stdout.toString(StandardCharsets.UTF_8));
        } finally {
            FleetMcpServer.closeQuietly(server);
        }
    }

    @Test
    void stdinIsReadOnlyOnceTheSessionExists() {
        StdioTransport transport = new StdioTransport(mapper.mapper(), new ByteArrayInputStream(new byte[0]),
                new LineOutput(stdout, "the client"), ends::incrementAndGet);

        assertThrows(IllegalStateException.class, transport::start);
        assertEquals(0, ends.get(), "nothing was read");
    }

    /** A fleet server on a transport over {@code stdin}, reading. */
    private McpSyncServer serve(InputStream stdin) {
        FleetMcpServer fleet = Fixtures.stdioMember();
        fleet.register();
        StdioTransport transport = new StdioTransport(mapper.mapper(), stdin, new LineOutput(stdout, "the client"),
                ends::incrementAndGet);
        McpSyncServer server = fleet.build(McpServer.sync(fleet.feed().wrap(transport)));
        transport.start();
        return server;
    }

    /** The first {@code count} lines on stdout, by id (the text of a null id is "null"). */
    private Map<String, JsonNode> awaitAnswers(int count) throws Exception {
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(20), () -> lines().size() >= count,
                count + " answers on stdout");
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : lines()) {
            JsonNode answer = JSON.readTree(line);
            byId.put(answer.path("id").asText(), answer);
        }
        assertEquals(count, byId.size(), () -> "one answer per request: " + lines());
        return byId;
    }

    private List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (String line : stdout.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        return lines;
    }
}
