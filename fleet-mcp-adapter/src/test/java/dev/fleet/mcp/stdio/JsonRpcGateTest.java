package dev.fleet.mcp.stdio;

import static dev.fleet.mcp.stdio.TextReadingCount.INITIALIZE;
import static dev.fleet.mcp.stdio.TextReadingCount.INITIALIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gate in process: which lines reach the SDK, as the very message the SDK's own reader would make
 * of their text, yet from the gate's one parse; and what every other line is answered.
 */
class JsonRpcGateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final TextReadingCount sdkMapper = new TextReadingCount();
    private final JsonRpcGate gate = new JsonRpcGate(sdkMapper.mapper(), new LineOutput(stdout, "the client"));
    private int repliesRead;

    @Test
    void aSessionOpensWithInitializeThenInitializedAndOnlyThenTakesRequests() throws IOException {
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}", -32600, "a");
        assertDropped(INITIALIZED); // before initialize: ignored
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/list\"}", -32600, "b");

        assertPassed(INITIALIZE);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/list\"}", -32600, "c");
        assertPassed(INITIALIZED);
        assertDropped(INITIALIZED); // a second one: the SDK would log that requests may block forever

        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"tools/list\"}");
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":\"e\",\"method\":\"ping\"}");
        assertEquals(3, replies().size());
    }

    /** A method, an id and a result or an error: no request, refused under its id, as the relay and HTTP refuse it. */
    @Test
    void aRequestHoldingAResultOrAnErrorIsRefusedUnderItsId() throws IOException {
        open();
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"tools/list\",\"result\":{}}", -32600, "r");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"error\":{\"code\":1,\"message\":\"x\"}}",
                -32600, 9);
        assertEquals("Invalid Request: a request holds no result nor error", replies().get(repliesRead - 1)
                .path("error").path("message").asText());
    }

    /**
     * The SDK's bound on a key (50,000 characters) counts characters, as it reads a line as text: a key of 20,000 of
     * three bytes each is the SDK's to read; one beyond the bound is a parse error under the request's id, as over HTTP.
     */
    @Test
    void aParamsKeyIsBoundedByItsCharactersAndRefusedUnderItsId() throws IOException {
        open();
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"" + "\u20ac".repeat(20_000)
                + "\":1}}");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"" + "k".repeat(50_001)
                + "\":1}}", -32700, 5);
    }

    @Test
    void pingIsAnsweredBeforeInitialization() throws IOException {
        byte[] ping = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Admission.Handled.ANSWERED, gate.admit(ping, ping.length));

        JsonNode reply = replies().get(0);
        assertEquals(7, reply.get("id").asInt());
        assertEquals(JSON.createObjectNode(), reply.get("result"));
    }

    @Test
    void linesThatAreNotJsonRpcGetParseErrorOrInvalidRequestWithANullId() throws IOException {
        open();
        for (String line : List.of("hello", "{", "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"} trailing",
                "\u0000", "[".repeat(5_000))) {
            assertRefused(line, -32700, null);
        }
        for (String line : List.of("[]", "[{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}]", "null", "1", "\"x\"",
                "true", "{}", "{\"jsonrpc\":\"2.0\"}", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"ping\"}")) {
            assertRefused(line, -32600, null);
        }
        byte[] invalidUtf8 = {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'};
        assertEquals(Admission.Handled.ANSWERED, gate.admit(invalidUtf8, invalidUtf8.length));
        assertEquals(-32700, lastReply().path("error").path("code").asInt());
    }

    /**
     * A batch (which MCP 2025-03-26, a version this server negotiates, allowed) is refused, each of its requests
     * under its own id, in one array as JSON-RPC answers a batch: before, one error with a null id answered it, and a
     * client waited for ever on each request in it.
     */
    @Test
    void aBatchIsRefusedWithAnErrorUnderEachOfItsRequestsIds() throws IOException {
        open();
        String batch = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"x\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"method\":\"tools/list\"},{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}]";
        byte[] bytes = batch.getBytes(StandardCharsets.UTF_8);
        assertEquals(Admission.Handled.ANSWERED, gate.admit(bytes, bytes.length));

        JsonNode answers = lastReply();
        assertTrue(answers.isArray(), () -> "one array, an error for each request: " + answers);
        assertEquals(3, answers.size(), answers::toString);
        assertEquals(List.of("1", "\"t\"", "1.5"), List.of(answers.get(0).get("id").toString(),
                answers.get(1).get("id").toString(), answers.get(2).get("id").toString()));
        answers.forEach(answer -> assertEquals(-32600, answer.path("error").path("code").asInt(), answer::toString));

        String one = "[{\"jsonrpc\":\"2.0\",\"id\":\"m\",\"method\":\"tools/list\"}]";
        assertEquals(Admission.Handled.ANSWERED, gate.admit(one.getBytes(StandardCharsets.UTF_8), one.length()));
        JsonNode answer = lastReply();
        assertTrue(answer.isArray() && answer.size() == 1 && "m".equals(answer.get(0).path("id").asText()),
                () -> "a batch of one is answered with an array of one: " + answer);
    }

    /**
     * A request line the parser refuses whole (a number over 1,000 digits, nesting beyond 1,000 levels, trailing
     * garbage) is answered under the id its top level names, as HTTP and the relay answer it: with a null id, the
     * client could match the error to no request and waited on it for ever.
     */
    @Test
    void aRequestLineThatIsNoJsonIsRefusedUnderTheIdItNames() throws IOException {
        open();
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"tools/call\",\"params\":{\"n\":" + "1".repeat(2_000)
                + "}}", -32700, 15);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"deep\",\"method\":\"ping\",\"params\":{\"a\":" + "[".repeat(5_000)
                + "]".repeat(5_000) + "}}", -32700, "deep");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing", -32700, 1);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":" + "1".repeat(2_000) + "}", -32700, null);
    }

    @Test
    void aRequestWithAUsableIdIsAnsweredUnderThatId() throws IOException {
        open();
        assertRefused("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}", -32600, 5);
        assertRefused("{\"id\":\"s\",\"method\":\"ping\"}", -32600, "s");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":[\"ping\"]}", -32600, 6);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":\"x\"}", -32602, 8);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}", -32602, 9);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{}}", -32602, 10);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"initialize\",\"params\":{\"capabilities\":\"x\"}}",
                -32602, 11);
        // stdio shares HTTP's bound on what initialize may make a session keep.
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\""
                + "x".repeat(RequestParams.MAX_INITIALIZE_PARAMS_BYTES) + "\",\"version\":\"1\"}}}", -32602, 12);
    }

    @Test
    void aToolCallWithArgumentsOfAnyShapeReachesTheSdk() throws IOException {
        open();
        for (String arguments : List.of("{}", "{\"a\":1}", "[]", "\"x\"", "5", "true", "null")) {
            assertPassed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                    + "\"arguments\":" + arguments + "}}");
        }
    }

    /**
     * The line is read in one streaming pass, and only its params again, as a tree for the SDK: within
     * Jackson's bounds, so a number of thousands of digits there is refused, never decoded; and a key
     * twice counts as the SDK's own reader counts it, the last.
     */
    @Test
    void onlyTheParamsAreReadAgainWithinJacksonsBounds() throws IOException {
        open();
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"arguments\":{\"n\":" + "9".repeat(5_000) + "}}}", -32700, 3);
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"u\",\"name\":\"t\"}}");
    }

    /**
     * A number longer than Jackson's default (1000 digits) anywhere in the line, not only in params, is a
     * parse error under the request's id where it reads before the fault (else null): never passed on, never echoed.
     */
    @Test
    void aNumberBeyondJacksonsDefaultLengthAnywhereIsAParseError() throws IOException {
        open();
        String digits = "9".repeat(5_000);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"extra\":" + digits + "}", -32700, 3);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":" + digits + ",\"method\":\"ping\"}", -32700, null);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"extra\":0." + digits + "}", -32700, 4);
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\",\"extra\":NaN}", -32700, 6);
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"extra\":" + "9".repeat(1_000) + "}");
    }

    /** A message of more tokens than the plain reader reads is refused under its id, never built into a tree. */
    @Test
    void aMessageOfTooManyTokensIsAnInvalidRequestUnderItsId() throws IOException {
        open();
        String objects = String.join(",", Collections.nCopies(JsonRpcReader.MAX_TOKENS, "{}"));
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"arguments\":{\"a\":[" + objects + "]}}}", -32600, 6);
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
    }

    @Test
    void notificationsOtherThanInitializedAndBadResponsesAreDroppedUnanswered() throws IOException {
        open();
        assertDropped("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}");
        assertDropped("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
        assertDropped("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}");
        assertDropped("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"x\"}");
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        assertEquals(List.of(), replies());
    }

    @Test
    void blankLinesAreNoMessages() throws IOException {
        assertDropped("");
        assertDropped(" \t ");
        assertEquals(List.of(), replies());
    }

    @Test
    void carriageReturnsBetweenTokensAreWhitespace() throws IOException {
        open();
        byte[] line = "{\"jsonrpc\":\"2.0\",\r\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);

        McpSchema.JSONRPCMessage passed = assertInstanceOf(Admission.Passed.class, gate.admit(line, line.length)).message();

        assertEquals(new McpSchema.JSONRPCRequest("2.0", "ping", 1, null), passed);
    }

    /**
     * Parsed once: every message handed on is made from the gate's own parse of the line, never by
     * having the SDK read the line's text again (its reader, {@code deserializeJsonRpcMessage},
     * reads text through the mapper; the gate only converts its tree).
     */
    @Test
    void everyLineIsParsedOnceTheSdkNeverReadsItsText() throws IOException {
        open();
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"arguments\":{\"a\":[1,2.5,\"x\",null,true]}}}");
        assertPassed("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{}}", -32602, 4);

        assertEquals(0, sdkMapper.reads(), "the SDK's mapper read a line's text");
    }

    @Test
    void aTooLongLineIsAnsweredOnce() throws IOException {
        gate.tooLong(16 * 1024 * 1024);

        JsonNode reply = replies().get(0);
        assertTrue(reply.get("id").isNull());
        assertEquals(-32600, reply.path("error").path("code").asInt());
        assertTrue(reply.path("error").path("message").asText().contains("16777216"));
    }

    @Test
    void everyReplyIsOneLineTheSdkReads() throws IOException {
        assertRefused("{\"jsonrpc\":\"2.0\",\"id\":\"x\\ny\",\"method\":\"a\\nb\"}", -32600, "x\ny");
        for (String line : stdout.toString(StandardCharsets.UTF_8).split("\n")) {
            McpSchema.deserializeJsonRpcMessage(Fixtures.mapper(), line);
        }
    }

    private void open() throws IOException {
        assertPassed(INITIALIZE);
        assertPassed(INITIALIZED);
    }

    /** The line is handed on as exactly the message the SDK's own reader makes of its text. */
    private void assertPassed(String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        McpSchema.JSONRPCMessage passed = assertInstanceOf(Admission.Passed.class, gate.admit(bytes, bytes.length)).message();
        assertEquals(McpSchema.deserializeJsonRpcMessage(Fixtures.mapper(), line), passed, line);
    }

    private void assertDropped(String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertEquals(Admission.Handled.UNANSWERED, gate.admit(bytes, bytes.length), line);
    }

    private void assertRefused(String line, int code, Object id) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertEquals(Admission.Handled.ANSWERED, gate.admit(bytes, bytes.length), line);
        JsonNode reply = lastReply();
        assertEquals(code, reply.path("error").path("code").asInt(), () -> line + " -> " + reply);
        assertEquals(id == null ? JSON.nullNode() : JSON.valueToTree(id), reply.get("id"), () -> line + " -> " + reply);
        String message = reply.path("error").path("message").asText();
        assertFalse(message.matches("(?s).*(`|Exception|java\\.|jackson).*"),
                () -> "the client's words, never the parser's names of this server's classes: " + message);
    }

    private JsonNode lastReply() throws IOException {
        List<JsonNode> all = replies();
        assertEquals(repliesRead + 1, all.size(), "one reply per refused line");
        repliesRead = all.size();
        return all.get(all.size() - 1);
    }

    private List<JsonNode> replies() throws IOException {
        String text = stdout.toString(StandardCharsets.UTF_8);
        List<JsonNode> replies = new java.util.ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                replies.add(JSON.readTree(line));
            }
        }
        return replies;
    }
}
