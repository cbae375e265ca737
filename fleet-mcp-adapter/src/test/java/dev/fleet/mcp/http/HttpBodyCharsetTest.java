package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A body is JSON, and JSON is UTF-8 (RFC 8259, §8.1; its media type defines no {@code charset}, which
 * "really has no effect on compliant recipients", §11): the guard checks the body's bytes as UTF-8, so the
 * SDK must read those same characters, whatever {@code charset} the client's {@code Content-Type} names. The
 * SDK's servlet decoded the body with the named charset: a name Java does not know got 500 (-32603,
 * "Internal error", for the client's own input), {@code utf-16} turned the JSON the guard had passed into
 * noise (400, "Bad Request", and an ERROR in the log), and {@code iso-8859-1} made another text of it than
 * the guard had read (a tool named {@code é} became {@code Ã©}; a key within the SDK's bound of 50,000
 * characters, beyond it).
 */
class HttpBodyCharsetTest extends HttpSurfaceFixture {

    @Test
    void aCharsetParameterNeverChangesHowTheBodyIsRead() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        for (String charset : new String[] {"ebcdic", "x\"y", "utf-16", "iso-8859-1", "UTF-8"}) {
            HttpResponse<String> initialized = send(post(INITIALIZE, charset));
            assertEquals(200, initialized.statusCode(), charset + ": " + initialized.body());
            String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
            send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", charset)
                    .header("Mcp-Session-Id", session));

            HttpResponse<String> unknown = send(post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"caf\u00e9\"}}", charset).header("Mcp-Session-Id", session));
            assertEquals(200, unknown.statusCode(), charset + ": " + unknown.body());
            assertTrue(unknown.body().contains("Unknown tool: caf\u00e9\""), charset + ": " + unknown.body());

            // 20,000 characters, 60,000 bytes: within the SDK's bound of 50,000 characters for a key.
            String key = "\u20ac".repeat(20_000);
            HttpResponse<String> wideKey = send(post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"x\",\"" + key + "\":1}}", charset).header("Mcp-Session-Id", session));
            assertEquals(200, wideKey.statusCode(), charset + ": " + wideKey.body());
            assertTrue(wideKey.body().contains("Unknown tool: x\""), charset + ": " + wideKey.body());

            HttpResponse<String> modern = send(post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"nope\",\"" + key + "\":1," + MODERN_META + "}}", charset)
                    .header("Mcp-Method", "tools/call").header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Name", "nope"));
            expectError(modern, 400, -32602);
            assertTrue(modern.body().contains("nope"), charset + ": " + modern.body());
            assertClean(modern.headers().map() + modern.body());
        }
    }

    private HttpRequest.Builder post(String body, String charset) {
        return request().header("Content-Type", "application/json; charset=" + charset).header("Accept", ACCEPT)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }
}
