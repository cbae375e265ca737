package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract, "bad client input never ends a server", on a real stdio subprocess: every line that is
 * not JSON-RPC gets a JSON-RPC error and the server keeps serving; so does a request before
 * {@code initialize}; a line longer than 16 MiB is discarded with an error reply without being held
 * whole; only EOF ends the server (then its row is marked stopped once); and no client mistake puts
 * a stack trace on stderr.
 */
class StdioBadInputTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int PARSE_ERROR = -32700;
    private static final int INVALID_REQUEST = -32600;
    private static final int INVALID_PARAMS = -32602;
    private static final String ASSESS = "gitea_assess_fleet_inventory";
    private static final String CONTEXT = "gitea_get_runtime_context";
    private static final int MIB = 1024 * 1024;

    @TempDir
    Path temp;

    /** One bad line and the error it must get: code and id (null when the id cannot be trusted). */
    private record Bad(String what, byte[] line, int code, JsonNode id) {
        static Bad of(String what, String line, int code) {
            return new Bad(what, line.getBytes(StandardCharsets.UTF_8), code, NullNode.instance);
        }

        static Bad of(String what, String line, int code, JsonNode id) {
            return new Bad(what, line.getBytes(StandardCharsets.UTF_8), code, id);
        }
    }

    @Test
    void everyLineThatIsNotJsonRpcGetsAnErrorReplyAndTheServerKeepsServing() throws Exception {
        byte[] invalidUtf8 = concat("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"ping\",\"x\":\"".getBytes(
                StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, (byte) 0x28}, "\"}".getBytes(StandardCharsets.UTF_8));
        byte[] trailingNul = concat(ping("31").getBytes(StandardCharsets.UTF_8), new byte[] {0});
        List<Bad> bad = List.of(
                Bad.of("plain text", "hello", PARSE_ERROR),
                Bad.of("an unfinished object", "{", PARSE_ERROR),
                Bad.of("an empty array", "[]", INVALID_REQUEST),
                Bad.of("null", "null", INVALID_REQUEST),
                Bad.of("a number", "42", INVALID_REQUEST),
                Bad.of("a string", "\"ping\"", INVALID_REQUEST),
                Bad.of("jsonrpc alone", "{\"jsonrpc\":\"2.0\"}", INVALID_REQUEST),
                Bad.of("an empty object", "{}", INVALID_REQUEST),
                new Bad("invalid UTF-8", invalidUtf8, PARSE_ERROR, NullNode.instance),
                new Bad("NUL bytes", new byte[] {0, 0, 0}, PARSE_ERROR, NullNode.instance),
                new Bad("a message followed by NUL", trailingNul, PARSE_ERROR, NODES.numberNode(31)),
                Bad.of("a batch", "[" + ping("32") + "]", INVALID_REQUEST, NODES.numberNode(32)),
                Bad.of("an object as id", ping("{\"a\":1}"), INVALID_REQUEST),
                Bad.of("an array as id", ping("[1]"), INVALID_REQUEST),
                Bad.of("a boolean as id", ping("true"), INVALID_REQUEST),
                Bad.of("a fraction as id", ping("1.5"), INVALID_REQUEST),
                Bad.of("a null id", ping("null"), INVALID_REQUEST),
                Bad.of("a number as method", "{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":5}", INVALID_REQUEST,
                        NODES.numberNode(33)),
                Bad.of("JSON-RPC 1.0", "{\"jsonrpc\":\"1.0\",\"id\":34,\"method\":\"ping\"}", INVALID_REQUEST,
                        NODES.numberNode(34)),
                Bad.of("no jsonrpc", "{\"id\":35,\"method\":\"ping\"}", INVALID_REQUEST, NODES.numberNode(35)),
                Bad.of("trailing garbage", ping("36") + " x", PARSE_ERROR, NODES.numberNode(36)),
                Bad.of("two messages on one line", ping("37") + ping("38"), PARSE_ERROR, NODES.numberNode(37)),
                Bad.of("deep nesting", "[".repeat(100_000), PARSE_ERROR),
                Bad.of("params as an array", "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"tools/call\",\"params\":[]}",
                        INVALID_PARAMS, NODES.textNode("p")),
                Bad.of("a tool call without a name", "{\"jsonrpc\":\"2.0\",\"id\":39,\"method\":\"tools/call\","
                        + "\"params\":{\"arguments\":{}}}", INVALID_PARAMS, NODES.numberNode(39)),
                Bad.of("a tool call without params", "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"tools/call\"}",
                        INVALID_PARAMS, NODES.numberNode(40)),
                new Bad("a 50 MB line", fiftyMegabyteLine(), INVALID_REQUEST, NullNode.instance));

        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            int next = 100;
            for (Bad line : bad) {
                server.sendBytes(concat(line.line(), new byte[] {'\n'}));
                // A refused batch is answered with an array: an error under each of its requests' ids.
                JsonNode answer = server.next();
                JsonNode reply = answer.isArray() && answer.size() == 1 ? answer.get(0) : answer;
                assertEquals(line.code(), reply.path("error").path("code").asInt(), () -> line.what() + ": " + reply);
                assertEquals(line.id(), reply.get("id"), () -> line.what() + ": " + reply);
                assertFalse(reply.path("error").path("message").asText().isBlank(), line.what());

                // Still serving: a tool call right after is answered.
                int id = next++;
                JsonNode context = server.callTool(id, CONTEXT);
                assertFalse(context.path("result").path("isError").asBoolean(true),
                        () -> "after " + line.what() + ": " + context);
            }
            assertTrue(server.process().isAlive());

            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF still ends the server");
            assertEquals(0, server.process().exitValue());
            List<String> calls = server.calls();
            assertEquals(1, calls.stream().filter(call -> call.startsWith("markStopped ")).count(), calls::toString);
            assertEquals("exit 0", calls.get(calls.size() - 1));
            assertNoStackTrace(server.stderrText());
        }
    }

    @Test
    void requestsBeforeInitializeAreRefusedAndPingIsAnsweredThenTheSessionProceeds() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"early-list\",\"method\":\"tools/list\"}");
            JsonNode list = server.next();
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"early-call\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + ASSESS + "\",\"arguments\":{}}}");
            JsonNode call = server.next();
            server.send(ping("\"early-ping\""));
            JsonNode ping = server.next();
            server.send("hello");
            JsonNode garbage = server.next();
            // The initialized notification before initialize is ignored: requests are still refused.
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"still-early\",\"method\":\"tools/list\"}");
            JsonNode stillEarly = server.next();

            assertEquals(INVALID_REQUEST, list.path("error").path("code").asInt(), list::toString);
            assertEquals("early-list", list.path("id").asText());
            assertTrue(list.path("error").path("message").asText().contains("not initialized"), list::toString);
            assertEquals(INVALID_REQUEST, call.path("error").path("code").asInt(), call::toString);
            assertEquals("early-call", call.path("id").asText());
            assertEquals("early-ping", ping.path("id").asText());
            assertTrue(ping.path("result").isObject(), ping::toString);
            assertEquals(PARSE_ERROR, garbage.path("error").path("code").asInt(), garbage::toString);
            assertEquals(INVALID_REQUEST, stillEarly.path("error").path("code").asInt(), stillEarly::toString);
            assertEquals("still-early", stillEarly.path("id").asText());

            server.initialize();
            server.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            JsonNode tools = server.response(2);
            assertEquals(2, tools.path("result").path("tools").size(), tools::toString);
            JsonNode assess = server.callTool(3, ASSESS);
            assertFalse(assess.path("result").path("isError").asBoolean(true), assess::toString);
            assertNoStackTrace(server.stderrText());
        }
    }

    @Test
    void argumentsOfAnyShapeAreRefusedByTheToolItselfAndNullArgumentsAreNone() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            int id = 10;
            for (String tool : List.of(ASSESS, CONTEXT)) {
                for (String arguments : List.of("[]", "[1,2]", "\"x\"", "\"\"", "5", "0", "true", "false",
                        "{\"process\":{\"pid\":4242,\"healthy\":true}}", "{\"x\":null}")) {
                    JsonNode response = server.callTool(id, tool, arguments);
                    id++;
                    assertFalse(response.has("error"), () -> tool + " " + arguments + ": a tool result, not " + response);
                    JsonNode result = response.path("result");
                    assertTrue(result.path("isError").asBoolean(), () -> tool + " " + arguments + ": " + response);
                    String text = result.path("content").path(0).path("text").asText();
                    assertTrue(text.contains(tool.equals(ASSESS) ? "accepts no evidence" : "takes no arguments"),
                            () -> tool + " " + arguments + ": " + text);
                }
                JsonNode none = server.callTool(id++, tool, "null");
                assertFalse(none.path("result").path("isError").asBoolean(true), none::toString);
            }
            server.send("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/call\",\"params\":{\"name\":\"" + ASSESS
                    + "\"}}");
            assertFalse(server.response(99).path("result").path("isError").asBoolean(true), "no arguments at all");
            assertNoStackTrace(server.stderrText());
        }
    }

    @Test
    void notificationsAndResponsesTheServerDoesNotActOnAreIgnoredQuietly() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}");
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":78,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":79,\"error\":\"not an object\"}");

            JsonNode context = server.callTool(2, CONTEXT);

            assertEquals(2, context.path("id").asInt(), "the next line on stdout answers the next request");
            assertEquals(2, server.stdoutLines().size(), () -> "nothing was answered but the two requests: "
                    + server.stdoutLines());
            assertNoStackTrace(server.stderrText());
        }
    }

    /**
     * A line far longer than 16 MiB, with no newline for a long while, in a server whose heap could
     * not hold it: the reader keeps at most the limit, answers once, and the next line is served.
     */
    @Test
    void aHugeLineIsDiscardedWithoutHoldingItWhole() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp, List.of("-Xmx64m"))) {
            server.initialize();
            byte[] block = new byte[MIB];
            Arrays.fill(block, (byte) 'x');
            for (int i = 0; i < 160; i++) {
                server.sendBytes(block);
            }
            JsonNode tooLong = server.next(); // answered once the line crosses the limit, before its end
            server.sendBytes(new byte[] {'\n'});
            JsonNode context = server.callTool(2, CONTEXT);

            assertEquals(INVALID_REQUEST, tooLong.path("error").path("code").asInt(), tooLong::toString);
            assertTrue(tooLong.get("id").isNull(), tooLong::toString);
            assertTrue(tooLong.path("error").path("message").asText().contains(String.valueOf(16 * MIB)),
                    tooLong::toString);
            assertFalse(context.path("result").path("isError").asBoolean(true), context::toString);
            String stderr = server.stderrText();
            assertFalse(stderr.contains("OutOfMemoryError"), stderr);
            assertNoStackTrace(stderr);
        }
    }

    /**
     * A 2026-07-28 listen is answered only when it ends, so nothing else bounds how many a client opens: at
     * most 64 are open at once, a further one is refused at once (-32000), and so is one under the id of an
     * open one (-32600), which would otherwise never be answered. A cancelled listen frees its place; at EOF
     * each open listen gets its final result.
     */
    @Test
    void listensAreBoundedAndOneUnderTheIdOfAnOpenListenIsRefused() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            for (int i = 0; i < 64; i++) {
                server.send(listen("l" + i));
            }
            server.send(listen("l64"));
            JsonNode beyond = server.response(NODES.textNode("l64"));
            assertEquals(-32000, beyond.path("error").path("code").asInt(), beyond::toString);
            server.send(listen("l0"));
            JsonNode again = server.response(NODES.textNode("l0"));
            assertEquals(INVALID_REQUEST, again.path("error").path("code").asInt(), again::toString);

            server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"l1\"}}");
            server.send(listen("l65"));
            server.send(ping("\"after\""));
            server.response(NODES.textNode("after"));
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "EOF ends the server");

            Set<String> ended = new TreeSet<>();
            for (String line : server.stdoutLines()) {
                JsonNode message = new ObjectMapper().readTree(line);
                if (message.has("result") && message.path("id").asText().startsWith("l")) {
                    ended.add(message.path("id").asText());
                }
            }
            Set<String> open = new TreeSet<>();
            for (int i = 0; i < 64; i++) {
                open.add("l" + i);
            }
            open.remove("l1");
            open.add("l65");
            assertEquals(open, ended, () -> "each open listen's final result, and no other: " + server.stdoutLines());
            assertNoStackTrace(server.stderrText());
        }
    }

    /**
     * A 2026-07-28 {@code resources/read} of a URI fleet does not serve is invalid params naming it; one whose
     * {@code uri} is no string is refused without echoing it (it once came back as Java's {@code {a=1}}).
     */
    @Test
    void aModernReadOfAnUnknownOrNonStringUriIsInvalidParams() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send(read("\"unknown\"", "\"fleet://nothing\""));
            JsonNode unknown = server.response(NODES.textNode("unknown"));
            assertEquals(-32602, unknown.path("error").path("code").asInt(), unknown::toString);
            assertEquals("fleet://nothing", unknown.path("error").path("data").path("uri").asText(), unknown::toString);
            server.send(read("\"object\"", "{\"a\":1}"));
            JsonNode object = server.response(NODES.textNode("object"));
            assertEquals(-32602, object.path("error").path("code").asInt(), object::toString);
            assertFalse(object.toString().contains("a=1"), object::toString);
            server.send(read("\"verdict\"", "\"fleet://verdict\""));
            JsonNode verdict = server.response(NODES.textNode("verdict"));
            assertEquals("complete", verdict.path("result").path("resultType").asText(), verdict::toString);
            assertNoStackTrace(server.stderrText());
        }
    }

    private static String read(String id, String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/read\",\"params\":{\"uri\":" + uri
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"reader\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    }

    private static String listen(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"subscriptions/listen\",\"params\":{"
                + "\"notifications\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bounded\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    }

    private static void assertNoStackTrace(String stderr) {
        assertFalse(stderr.lines().anyMatch(line -> line.startsWith("\tat ") || line.startsWith("Caused by:")),
                () -> "a client's mistake put a stack trace on stderr:\n" + stderr);
    }

    /** A well-formed ping but for what {@code id} may hold: its JSON is inserted as given. */
    private static String ping(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    }

    private static byte[] fiftyMegabyteLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream(50 * 1_000_000 + 64);
        line.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"ping\",\"padding\":\"".getBytes(
                StandardCharsets.UTF_8));
        byte[] padding = new byte[1_000_000];
        Arrays.fill(padding, (byte) 'a');
        for (int i = 0; i < 50; i++) {
            line.writeBytes(padding);
        }
        line.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
        return line.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
