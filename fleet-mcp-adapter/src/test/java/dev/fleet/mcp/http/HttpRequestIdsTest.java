package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A request under an id the MCP Java SDK cannot take (a fraction, an exponent, an integer beyond a {@code long}, or
 * an id MCP does not allow) is refused with -32600 and {@code "id": null} in both eras, as stdio refuses it: the
 * 2026-07-28 era did, while a 2025-era session handed it to the SDK, which logged an ERROR and answered "Bad
 * Request" under the very id it could not take ({@code "id":1.5}).
 */
class HttpRequestIdsTest extends HttpSurfaceFixture {

    @Test
    void anIdTheSdkCannotTakeIsRefusedWithoutItInBothEras() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String id : new String[] {"1.5", "1e2", "-0.0", "9223372036854775808", "123456789012345678901234567890",
            "{}", "[7]", "true", "null"}) {
            HttpResponse<String> legacy = send(post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}")
                    .header("Mcp-Session-Id", session));
            expectError(legacy, 400, -32600);
            assertTrue(JSON.readTree(legacy.body()).path("id").isNull(), id + ": " + legacy.body());

            HttpResponse<String> modern = send(post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\","
                    + "\"params\":{" + MODERN_META + "}}").header("Mcp-Method", "tools/list")
                    .header("MCP-Protocol-Version", "2026-07-28"));
            expectError(modern, 400, -32600);
            assertEquals(modern.body(), legacy.body(), id);
        }
        // The session serves on, and an id the SDK takes is answered under it.
        HttpResponse<String> ping = send(post("{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"ping\"}")
                .header("Mcp-Session-Id", session));
        assertEquals(200, ping.statusCode(), ping.body());
        assertTrue(ping.body().contains("\"id\":9223372036854775807"), ping.body());
    }
}
