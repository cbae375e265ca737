package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What the 2026-07-28 era refuses over streamable HTTP is answered as stdio answers it: an id MCP or the SDK
 * cannot take gets 400 and -32600 with {@code "id": null} (the SDK's servlet answered with no id member at
 * all), and a listen whose filter the SDK refuses gets 400 and -32602 (it was 200 and -32603, with a stack
 * trace in the log); a URI other than {@code fleet://verdict} gets this era's "resource not found", 400 and
 * -32602 with {@code data.uri}.
 */
class ModernHttpRefusalsTest extends HttpSurfaceFixture {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"refused\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Test
    void aModernRequestWithAnIdTheSdkCannotTakeIsInvalidRequestWithIdNull() throws Exception {
        running = start("127.0.0.1", 0);
        for (String id : new String[] {"true", "1.5", "null", "{\"a\":1}", "12345678901234567890123"}) {
            HttpResponse<String> answer = modern("tools/list", "{\"jsonrpc\":\"2.0\",\"id\":" + id
                    + ",\"method\":\"tools/list\",\"params\":{" + META + "}}");
            JsonNode body = JSON.readTree(answer.body());
            assertEquals(400, answer.statusCode(), answer.body());
            assertEquals(-32600, body.path("error").path("code").asInt(), answer.body());
            assertTrue(body.has("id") && body.get("id").isNull(), () -> "id " + id + ": " + answer.body());
        }
    }

    @Test
    void aListenWithAFilterTheSdkRefusesIsInvalidParams() throws Exception {
        running = start("127.0.0.1", 0);
        HttpResponse<String> answer = modern("subscriptions/listen", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":"
                + "\"subscriptions/listen\",\"params\":{\"notifications\":{\"\":true}," + META + "}}");
        JsonNode body = JSON.readTree(answer.body());
        assertEquals(-32602, body.path("error").path("code").asInt(), answer.body());
        assertEquals(400, answer.statusCode(), answer.body());
        assertEquals(9, body.path("id").asInt(), answer.body());

        // A URI where a list belongs: the SDK's filter dropped it unread, and the listen was held open for nothing.
        HttpResponse<String> notAList = modern("subscriptions/listen", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":"
                + "\"subscriptions/listen\",\"params\":{\"notifications\":{\"resourceSubscriptions\":\"fleet://verdict\"},"
                + META + "}}");
        assertEquals(-32602, JSON.readTree(notAList.body()).path("error").path("code").asInt(), notAList.body());
        assertEquals(400, notAList.statusCode(), notAList.body());
    }

    @Test
    void anUnknownUriIsInvalidParamsWithTheUriAsThisEraHasIt() throws Exception {
        running = start("127.0.0.1", 0);
        HttpResponse<String> answer = send(post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"fleet://nope\"," + META + "}}").header("Mcp-Method", "resources/read")
                .header("Mcp-Name", "fleet://nope").header("MCP-Protocol-Version", "2026-07-28"));
        JsonNode body = JSON.readTree(answer.body());
        assertEquals(-32602, body.path("error").path("code").asInt(), answer.body());
        assertEquals("fleet://nope", body.path("error").path("data").path("uri").asText(), answer.body());
        assertEquals(400, answer.statusCode(), answer.body());
    }

    @Test
    void anIdOfALoneSurrogateIsEchoedEscaped() throws Exception {
        running = start("127.0.0.1", 0);
        for (HttpRequest.Builder request : new HttpRequest.Builder[] {
            post("{\"jsonrpc\":\"2.0\",\"id\":\"\\udc00\",\"method\":\"tools/list\",\"params\":{" + META + "}}")
                    .header("Mcp-Method", "tools/list").header("MCP-Protocol-Version", "2026-07-28"),
            post("{\"jsonrpc\":\"2.0\",\"id\":\"\\udc00\",\"method\":\"tools/list\",\"params\":{" + META + "}}")}) {
            String answer = HttpSessionMessagesTest.utf8(http.send(request.build(),
                    HttpResponse.BodyHandlers.ofByteArray()).body());
            assertTrue(answer.toLowerCase(Locale.ROOT).contains("\"id\":\"\\udc00\""), answer);
        }
    }

    @Test
    void aKeyBeyondTheSdksBoundIsAParseErrorUnderTheRequestsId() throws Exception {
        running = start("127.0.0.1", 0);
        String key = "k".repeat(50_001);
        for (String body : new String[] {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\""
                + key + "\":1," + META + "}}", "{\"jsonrpc\":\"2.0\",\"id\":5,\"" + key
                + "\":1,\"method\":\"tools/list\",\"params\":{" + META + "}}"}) {
            HttpResponse<String> answer = modern("tools/list", body);
            expectError(answer, 400, -32700);
            assertEquals(5, JSON.readTree(answer.body()).path("id").asInt(), answer.body());
        }
        // The bound counts characters, as the SDK reads the body as text: 20,000 of three bytes each are within it.
        String wide = "\u20ac".repeat(20_000);
        HttpResponse<String> served = modern("tools/list", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\","
                + "\"params\":{\"" + wide + "\":1," + META + "}}");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aNotificationsHeadersWhereGivenMustSayWhatItsBodySays() throws Exception {
        running = start("127.0.0.1", 0);
        String cancelled = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,"
                + META + "}}";
        assertEquals(202, modern("notifications/cancelled", cancelled).statusCode());
        // Left out, a header is no fault: a TypeScript SDK 2.4 client sets Mcp-Method on requests only.
        assertEquals(202, send(post(cancelled)).statusCode());
        assertEquals(202, send(post(cancelled).header("MCP-Protocol-Version", "2026-07-28")).statusCode());
        for (HttpRequest.Builder refused : new HttpRequest.Builder[] {
            post(cancelled).header("Mcp-Method", "tools/list").header("MCP-Protocol-Version", "2026-07-28"),
            post(cancelled).header("Mcp-Method", "notifications/cancelled").header("Mcp-Method", "notifications/cancelled"),
            post(cancelled).header("Mcp-Method", "notifications/cancelled").header("MCP-Protocol-Version", "2025-11-25")}) {
            HttpResponse<String> answer = send(refused);
            expectError(answer, 400, -32020);
            assertTrue(JSON.readTree(answer.body()).get("id").isNull(), answer.body());
        }
        String future = cancelled.replace("2026-07-28", "2099-01-01");
        HttpResponse<String> unsupported = send(post(future).header("Mcp-Method", "notifications/cancelled")
                .header("MCP-Protocol-Version", "2099-01-01"));
        expectError(unsupported, 400, -32022);
        assertFalse(unsupported.body().contains("2099"), unsupported.body());
    }

    @Test
    void aRequestHoldingAResultIsRefusedUnderItsId() throws Exception {
        running = start("127.0.0.1", 0);
        HttpResponse<String> answer = modern("tools/list", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\","
                + "\"error\":{\"code\":1,\"message\":\"x\"},\"params\":{" + META + "}}");
        expectError(answer, 400, -32600);
        JsonNode body = JSON.readTree(answer.body());
        assertEquals(6, body.path("id").asInt(), answer.body());
        assertEquals("Invalid Request: a request holds no result nor error", body.path("error").path("message").asText());
    }

    private HttpResponse<String> modern(String method, String body) throws Exception {
        return send(post(body).header("Mcp-Method", method).header("MCP-Protocol-Version", "2026-07-28"));
    }
}
