package dev.fleet.mcp.jsonrpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Fault;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import java.io.IOException;
import java.util.List;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** The one reader says what each message is, where it and its params lie, and why it is none of the four kinds. */
class JsonRpcReaderTest {

    private static final JsonRpcReader STRICT = new JsonRpcReader(1 << 20, JsonRpcReader.DuplicateKeys.REFUSED);
    private static final JsonRpcReader LENIENT = new JsonRpcReader(1 << 20, JsonRpcReader.DuplicateKeys.LAST_COUNTS);

    @Test
    void aRequestSaysItsIdMethodAndWhereItsParamsLie() {
        String line = " {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":"
                + "{\"name\":\"deep\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}} ";
        Request request = assertInstanceOf(Request.class, read(STRICT, line).message());
        assertEquals("tools/call", request.method());
        assertEquals("7", request.id().json());
        assertTrue(request.parts().versioned());
        assertEquals(line.trim(), line.substring(request.start(), request.end()));
        Params params = request.parts().params();
        assertEquals("x", params.name(), "the params' own name, never an argument's");
        assertEquals("2026-07-28", params.protocolVersion());
        assertEquals('{', line.charAt(params.start()));
        assertEquals("}}", line.substring(params.end() - 2, params.end()));
    }

    @Test
    void notificationsResponsesAndWhatIsNeither() {
        Notification cancelled = assertInstanceOf(Notification.class,
                read(STRICT, "{\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1.0}}").message());
        assertEquals(JsonRpcId.of(JsonNodeFactory.instance.numberNode(1)).key(),
                cancelled.parts().params().requestId().key(), "ids compare by value");
        Response error = assertInstanceOf(Response.class, read(STRICT, "{\"id\":\"a\",\"error\":{}}").message());
        assertTrue(error.parts().hasError());
        assertFault(Fault.NEITHER, false, read(STRICT, "{\"id\":1}").message());
        assertFault(Fault.MALFORMED_RESPONSE, false, read(STRICT, "{\"id\":1,\"result\":1,\"error\":{}}").message());
        assertFault(Fault.MALFORMED_RESPONSE, false, read(STRICT, "{\"result\":{}}").message());
        assertFault(Fault.ID_NOT_LEGAL, true, read(STRICT, "{\"method\":\"m\",\"id\":null}").message());
        assertFault(Fault.METHOD_NOT_A_STRING, true, read(STRICT, "{\"method\":1,\"id\":2}").message());
        assertFault(Fault.METHOD_NOT_A_STRING, false, read(STRICT, "{\"method\":1}").message());
    }

    @Test
    void aReaderOfAChildsLinesLetsTheLastKeyCountButWhereItRoutes() {
        JsonRpcReader child = new JsonRpcReader(1 << 20, JsonRpcReader.DuplicateKeys.ONCE_WHERE_ROUTED);
        Response deep = assertInstanceOf(Response.class,
                read(child, "{\"id\":1,\"result\":{\"k\":1,\"k\":2},\"jsonrpc\":\"2.0\"}").message());
        assertEquals("1", deep.id().json());
        for (String twice : List.of("{\"id\":1,\"id\":2,\"result\":{}}", "{\"id\":1,\"result\":{},\"result\":{}}",
                "{\"id\":1,\"error\":{},\"error\":{}}", "{\"method\":\"a\",\"method\":\"b\"}")) {
            assertFault(Fault.ROUTED_KEY_TWICE, false, read(child, twice).message());
            assertInstanceOf(Invalid.class, read(child, "[" + twice + ",{\"method\":\"n\"}]").messages().get(0));
            assertInstanceOf(Notification.class, read(child, "[" + twice + ",{\"method\":\"n\"}]").messages().get(1));
            assertFalse(read(LENIENT, twice).message() instanceof Invalid invalid
                    && invalid.fault() == Fault.ROUTED_KEY_TWICE, "the plain servers' reader: the last counts");
        }
    }

    @Test
    void aBatchRefusedWholeStillNamesTheIdsOfItsRequests() {
        String line = "[{\"id\":1,\"method\":\"a\"},{\"id\":2,\"method\":\"b\",\"params\":{\"x\":1,\"x\":2}},"
                + "{\"method\":\"n\"},{\"id\":3,\"result\":{}},{\"id\":4,\"id\":5,\"method\":\"c\"},7,"
                + "{\"id\":\"s\",\"method\":\"d\",\"params\":" + "[".repeat(1001) + "]".repeat(1001) + "}]";
        byte[] bytes = line.getBytes(UTF_8);
        assertEquals(List.of("1", "2", "\"s\""), STRICT.readableRequestIds(bytes, bytes.length).stream()
                .map(JsonRpcId::json).toList(), "requests only, each id given once, each element read on its own");
        byte[] deepFirst = ("[{\"method\":\"a\",\"params\":" + "[".repeat(1001) + "\"],[{\\\"\"" + "]".repeat(1001)
                + ",\"id\":1},{\"id\":\"x,]\\\"}\",\"method\":\"b\"},{\"method\":\"c\",\"id\":3} x").getBytes(UTF_8);
        assertEquals(List.of("\"x,]\\\"}\"", "3"), STRICT.readableRequestIds(deepFirst, deepFirst.length).stream()
                .map(JsonRpcId::json).toList(), "a deep element hides only its own id; brackets in strings are text");
        byte[] single = "{\"id\":1,\"method\":\"a\"}".getBytes(UTF_8);
        assertEquals(List.of(), STRICT.readableRequestIds(single, single.length), "a line that is no batch");
        String request = "{\"id\":1,\"method\":\"m\",\"params\":{\"a\":1,\"a\":2}}";
        byte[] atTheBound = ("[" + (request + ",").repeat(JsonRpcReader.MAX_BATCH) + "]").getBytes(UTF_8);
        assertEquals(JsonRpcReader.MAX_BATCH, STRICT.readableRequestIds(atTheBound, atTheBound.length).size(),
                "a trailing comma is no element: the batch is within the bound, each request named");
        byte[] beyond = ("[" + (request + ",").repeat(JsonRpcReader.MAX_BATCH) + request + "]").getBytes(UTF_8);
        assertEquals(List.of(), STRICT.readableRequestIds(beyond, beyond.length), "beyond it, answered once");
    }

    @Test
    void aRefusedLineNamesARequestsIdWhereverItsMethodLiesButNeverAResponses() {
        Invalid methodLast = (Invalid) read(STRICT, "{\"id\":5,\"params\":{\"x\":tru},\"method\":\"m\"}").message();
        assertEquals("5", methodLast.id().json(), "a request whose method comes after the fault");
        Invalid response = (Invalid) read(STRICT, "{\"id\":0,\"result\":{\"a\":1,\"a\":2}}").message();
        assertEquals(JsonRpcId.NONE, response.id(), "a response names a request of the other side's");
        Invalid methodAndResult = (Invalid) read(STRICT, "{\"id\":7,\"method\":\"m\",\"result\":{\"a\":1,\"a\":2}}")
                .message();
        assertEquals("7", methodAndResult.id().json(), "with a method it meant to be a request");
    }

    @Test
    void aLineThatIsNoMessageSaysWhyAndTheIdItStillNames() {
        Invalid notJson = assertFault(Fault.NOT_JSON, false, read(STRICT, "{\"id\":5,\"method\":\"m\"} x").message());
        assertTrue(notJson.wholeLine());
        assertEquals("5", notJson.id().json(), "a refusal names the request where its id can be read");
        Invalid response = (Invalid) read(JsonRpcReader.plain(1 << 20), "{\"id\":5,\"result\":" + "1".repeat(1_001)
                + "}").message();
        assertEquals(JsonRpcId.NONE, response.id(), "a response whose result stops the reading is never answered "
                + "under its id, which names a request of the other side's");
        Invalid scalar = assertFault(Fault.LINE_NOT_AN_OBJECT, false, read(STRICT, "42").message());
        assertEquals("number", scalar.detail());
        assertFault(Fault.TOO_DEEP, false, read(STRICT, "[".repeat(1001) + "]".repeat(1001)).message());
        String twice = "{\"id\":1,\"method\":\"a\",\"method\":\"b\"}";
        assertFault(Fault.DUPLICATE_KEY, false, read(STRICT, twice).message());
        assertEquals("b", read(LENIENT, twice).message().method(), "a lenient reader takes the last, as the SDK");
        assertTrue(read(STRICT, " \t").blank());
    }

    /**
     * The plain servers read at most {@value JsonRpcReader#MAX_TOKENS} tokens of a message, whose params the SDK
     * builds into a tree; the relay, which passes what it does not route as bytes, reads a line whole.
     */
    @Test
    void thePlainReaderReadsABoundedNumberOfTokensAndNamesTheRequest() {
        JsonRpcReader plain = JsonRpcReader.plain(1 << 20);
        String objects = String.join(",", Collections.nCopies(JsonRpcReader.MAX_TOKENS / 2, "{}"));
        String line = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"arguments\":["
                + objects + "]}}";
        Invalid refused = assertFault(Fault.TOO_MANY_TOKENS, false, read(plain, line).message());
        assertEquals("9", refused.id().json(), "answered under its id");
        assertEquals("more than " + JsonRpcReader.MAX_TOKENS + " JSON tokens", refused.detail());
        assertInstanceOf(Request.class, read(STRICT, line).message(), "the relay's reader has no such bound");
        String fewer = String.join(",", Collections.nCopies(JsonRpcReader.MAX_TOKENS / 2 - 20, "{}"));
        assertInstanceOf(Request.class, read(plain, line.replace(objects, fewer)).message());
    }

    @Test
    void aBatchHoldsEachElementAndWhereItCloses() {
        String line = "[{\"id\":1,\"method\":\"a\"}, 3 ,{\"method\":\"n\"}]";
        JsonRpcLine batch = read(STRICT, line);
        assertTrue(batch.batch());
        assertEquals(3, batch.messages().size());
        assertInstanceOf(Request.class, batch.messages().get(0));
        Invalid three = assertFault(Fault.NOT_AN_OBJECT, false, batch.messages().get(1));
        assertEquals("3", line.substring(three.start(), three.end()));
        assertInstanceOf(Notification.class, batch.messages().get(2));
        assertEquals(line.length() - 1, batch.close());
        assertTrue(read(STRICT, "[]").batch());
    }

    @Test
    void theEnvelopesNameTheirRequestAsItWroteTheId() throws IOException {
        JsonRpcId id = read(STRICT, "{\"id\":1.50,\"method\":\"ping\"}").message().id();
        ObjectMapper json = new ObjectMapper();
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1.50,\"result\":{}}",
                json.writeValueAsString(JsonRpcEnvelope.result(id, json.createObjectNode())));
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"uri\":\"u\"}}",
                json.writeValueAsString(JsonRpcEnvelope.notification("m", json.createObjectNode().put("uri", "u"))));
        assertEquals("7", JsonRpcId.ofValue(7L).json());
        assertEquals("\"7\"", JsonRpcId.ofValue("7").json());
        assertFalse(JsonRpcId.ofValue(1.5).legal());
    }

    private static Invalid assertFault(Fault fault, boolean request, JsonRpcMessage message) {
        Invalid invalid = assertInstanceOf(Invalid.class, message);
        assertEquals(fault, invalid.fault());
        assertEquals(request, invalid.request());
        if (!request && !invalid.wholeLine() && fault == Fault.NOT_AN_OBJECT) {
            assertNull(invalid.id());
        }
        return invalid;
    }

    private static JsonRpcLine read(JsonRpcReader reader, String line) {
        byte[] bytes = line.getBytes(UTF_8);
        return reader.read(bytes, bytes.length);
    }
}
