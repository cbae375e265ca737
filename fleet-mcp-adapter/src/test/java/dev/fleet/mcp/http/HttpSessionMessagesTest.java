package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Messages of a 2025-era session over streamable HTTP that the SDK served badly (the HTTP audit's lows): a
 * roots notification with no GET stream open got 500 and an ERROR in the log; a request holding a result was
 * served as a request; an id of a lone surrogate came back as bytes that are not UTF-8.
 */
class HttpSessionMessagesTest extends HttpSurfaceFixture {

    private static final String INITIALIZE_2025_11_25 = INITIALIZE.replace("2025-06-18", "2025-11-25");

    @Test
    void aRootsNotificationWithoutAStreamIsAcceptedAndNoRootsAreAskedFor() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        HttpResponse<String> initialized = send(post(INITIALIZE_2025_11_25));
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        String roots = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}";
        PrintStream stderr = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        HttpResponse<String> accepted;
        try {
            System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
            send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25"));
            accepted = send(post(roots).header("Mcp-Session-Id", session).header("MCP-Protocol-Version",
                    "2025-11-25"));
        } finally {
            System.setErr(stderr);
        }
        String log = logged.toString(StandardCharsets.UTF_8);
        assertEquals(202, accepted.statusCode(), accepted.body());
        assertEquals("", accepted.body());
        assertFalse(log.contains("ERROR") || log.contains("\tat "), log);
        // The session serves on, and the notification of a session that is gone is refused as any message of it.
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)).statusCode());
        expectError(send(post(roots).header("Mcp-Session-Id", "no-such-session")), 404, -32001);
    }

    @Test
    void aRequestHoldingAResultOrAnErrorIsRefusedUnderItsId() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String answer : new String[] {"\"result\":{}", "\"error\":{\"code\":1,\"message\":\"x\"}"}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\","
                    + answer + "}").header("Mcp-Session-Id", session));
            expectError(refused, 400, -32600);
            JsonNode body = JSON.readTree(refused.body());
            assertEquals(6, body.path("id").asInt(), refused.body());
            assertEquals("Invalid Request: a request holds no result nor error",
                    body.path("error").path("message").asText());
        }
    }

    /** The SDK's bound on a key counts characters, as it reads a body as text: 20,000 of three bytes each pass. */
    @Test
    void aKeyOfManyWideCharactersWithinTheSdksBoundIsServed() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        HttpResponse<String> served = send(post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":{\""
                + "\u20ac".repeat(20_000) + "\":1}}").header("Mcp-Session-Id", session));
        assertEquals(200, served.statusCode(), served.body());
        assertTrue(served.body().contains("gitea_assess_fleet_inventory"), served.body());
    }

    @Test
    void anIdOfALoneSurrogateIsEchoedEscapedAndEveryByteIsUtf8() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String method : new String[] {"tools/list\"", "no/such\"", "tools/call\",\"params\":{\"name\":\"no\"}"}) {
            String answer = utf8(http.send(post("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"" + method + "}")
                    .header("Mcp-Session-Id", session).build(), HttpResponse.BodyHandlers.ofByteArray()).body());
            assertTrue(answer.toLowerCase(Locale.ROOT).contains("\"id\":\"\\ud800\""), answer);
        }
        // A pair is text: it passes as it is, written as UTF-8.
        String pair = utf8(http.send(post("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud83d\\ude00\",\"method\":\"ping\"}")
                .header("Mcp-Session-Id", session).build(), HttpResponse.BodyHandlers.ofByteArray()).body());
        assertTrue(pair.contains("\"id\":\"\uD83D\uDE00\""), pair);
    }

    /** The bytes as UTF-8, read strictly: a byte that is not UTF-8 fails the test. */
    static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }
}
