package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every way a request can be wrong, from an unknown session to a request line that is not HTTP, is
 * answered with a JSON-RPC error and HTTP only, names no server, and leaves the session working.
 */
class HttpErrorAnswersTest extends HttpSurfaceFixture {

    @Test
    void everyErrorPathAnswersAJsonRpcErrorAndNothingElse() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();

        expectError(send(post(PING).header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(post(PING)), 400, -32600); // a non-initialize request without a session id
        expectError(send(post("{\"jsonrpc\":").header("Mcp-Session-Id", session)), 400, -32700);
        expectError(send(post("").header("Mcp-Session-Id", session)), 400, -32700); // no JSON text at all
        expectError(send(post(" \r\n").header("Mcp-Session-Id", session)), 400, -32700);
        expectError(send(post("[1,2]").header("Mcp-Session-Id", session)), 400, -32600);
        for (String notJson : new String[] {"text/plain", "application/jsonx", "application/json-seq; charset=utf-8"}) {
            expectError(send(request().header("Content-Type", notJson).header("Accept", ACCEPT)
                    .POST(HttpRequest.BodyPublishers.ofString(PING))), 415, -32600);
        }
        // Two Content-Type lines name no one type: the first alone was read, so JSON then text/plain was served.
        for (String[] two : new String[][] {{"application/json", "text/plain"}, {"application/json", "application/json"}}) {
            expectError(send(request().header("Content-Type", two[0]).header("Content-Type", two[1])
                    .header("Accept", ACCEPT).header("Mcp-Session-Id", session)
                    .POST(HttpRequest.BodyPublishers.ofString(PING))), 415, -32600);
        }
        HttpResponse<String> spaced = send(request().header("Content-Type", "Application/JSON ; charset=utf-8")
                .header("Accept", ACCEPT).header("Mcp-Session-Id", session).POST(HttpRequest.BodyPublishers.ofString(PING)));
        assertEquals(200, spaced.statusCode(), "application/json, its case and parameters aside: " + spaced.body());
        expectError(send(request().header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(PING))), 406, -32600);
        assertTooLargeBeforeItsBody(session);
        expectError(send(request().method("PUT", HttpRequest.BodyPublishers.ofString(PING))), 405, -32600);
        expectError(send(request().method("OPTIONS", HttpRequest.BodyPublishers.noBody())), 405, -32600);
        expectError(send(request().GET().header("Accept", "text/event-stream")), 400, -32600);
        expectError(send(request().GET().header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(request().DELETE().header("Mcp-Session-Id", "no-such-session")), 404, -32001);
        expectError(send(HttpRequest.newBuilder(running.endpoint().resolve("/other")).GET()), 404, -32600);
        // Params the SDK cannot read: it would leave the call unanswered (tools/call) or answer 500 (initialize).
        HttpResponse<String> noParams = send(post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}")
                .header("Mcp-Session-Id", session));
        expectError(noParams, 400, -32602);
        assertEquals(7, JSON.readTree(noParams.body()).path("id").asInt(), noParams.body());
        expectError(send(post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":3}}")
                .header("Mcp-Session-Id", session)), 400, -32602);
        expectError(send(post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":null}")), 400,
                -32602);
        // The SDK's resource and logging handlers took their params for granted: no answer, or Java's words.
        for (String request : new String[] {"\"method\":\"resources/read\"",
            "\"method\":\"resources/read\",\"params\":{\"uri\":{\"a\":1}}", "\"method\":\"resources/subscribe\"",
            "\"method\":\"resources/unsubscribe\",\"params\":{}", "\"method\":\"logging/setLevel\"",
            "\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"fleet://verdict\",\"_meta\":\"x\"}",
            "\"method\":\"logging/setLevel\",\"params\":{\"level\":{\"a\":1}}"}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":10," + request + "}")
                    .header("Mcp-Session-Id", session));
            expectError(refused, 400, -32602);
            assertEquals(10, JSON.readTree(refused.body()).path("id").asInt(), refused.body());
            assertFalse(refused.body().contains("java") || refused.body().contains("McpSchema"), refused.body());
        }
        for (String params : new String[] {"\"_meta\":\"x\"", "\"capabilities\":\"x\""}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"initialize\","
                    + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"},"
                    + "\"capabilities\":{}," + params + "}}"));
            expectError(refused, 400, -32602);
            assertFalse(refused.body().contains("java") || refused.body().contains("McpSchema"), refused.body());
        }

        // The session still works: errors never end it.
        HttpResponse<String> ping = send(post(PING).header("Mcp-Session-Id", session));
        assertEquals(200, ping.statusCode(), ping.body());
        assertClean(ping.headers().map().toString() + ping.body());
    }

    /**
     * A request of a session whose {@code MCP-Protocol-Version} names no version the transport serves is
     * 400 (the MCP specification), for POST, GET and DELETE alike, without echoing the header; one the
     * transport serves, or none (2025-03-26 assumed), is served.
     */
    @Test
    void anUnsupportedProtocolVersionHeaderIsBadRequest() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String version : new String[] {"1999-01-01", "2026-07-28", "<script>", ""}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", version));
            expectError(refused, 400, -32600);
            assertEquals(12, JSON.readTree(refused.body()).path("id").asInt(), refused.body());
            assertTrue(refused.body().contains("2025-11-25"), refused.body());
            assertFalse(refused.body().contains("1999") || refused.body().contains("script"), refused.body());
        }
        expectError(send(request().GET().header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "1999-01-01")), 400, -32600);
        expectError(send(request().DELETE().header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "1999-01-01")), 400, -32600);
        for (String version : new String[] {"2025-03-26", "2025-06-18", "2025-11-25"}) {
            HttpResponse<String> served = send(post(PING).header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", version));
            assertEquals(200, served.statusCode(), served.body());
        }
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)).statusCode());
    }

    /**
     * A session's {@code MCP-Protocol-Version} given twice is 400, whatever the two say: the SDK read the first
     * alone (a served version followed by any other was served), where a proxy in front may read the second.
     */
    @Test
    void aProtocolVersionHeaderGivenTwiceIsBadRequest() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String second : new String[] {"1999-01-01", "2025-11-25"}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}")
                    .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25")
                    .header("MCP-Protocol-Version", second));
            expectError(refused, 400, -32600);
            assertEquals(13, JSON.readTree(refused.body()).path("id").asInt(), refused.body());
            assertTrue(refused.body().contains("more than once"), refused.body());
        }
        expectError(send(request().GET().header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25").header("MCP-Protocol-Version", "x")), 400, -32600);
        expectError(send(request().DELETE().header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25").header("MCP-Protocol-Version", "x")), 400, -32600);
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-11-25")).statusCode(), "the session, not deleted, still serves");
    }

    /**
     * Two {@code Mcp-Session-Id} headers are 400, whatever they say: the SDK served the first session (and a
     * DELETE ended it), where a proxy in front may route by the second.
     */
    @Test
    void aSessionIdGivenTwiceIsBadRequestAndEndsNoSession() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        String other = initialize();
        HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\"}")
                .header("Mcp-Session-Id", session).header("Mcp-Session-Id", other));
        expectError(refused, 400, -32600);
        assertEquals(14, JSON.readTree(refused.body()).path("id").asInt(), refused.body());
        expectError(send(request().GET().header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
                .header("Mcp-Session-Id", session)), 400, -32600);
        expectError(send(request().DELETE().header("Mcp-Session-Id", session).header("Mcp-Session-Id", other)),
                400, -32600);
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)).statusCode(), "not deleted");
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", other)).statusCode(), "not deleted");
    }

    /**
     * What the SDK would refuse to decode never reaches it, though the guard reads only the members it
     * routes: invalid UTF-8 in any string, or a number longer than Jackson's default 1000 digits anywhere
     * (a huge id included, never echoed), is 400 with -32700 and a null id.
     */
    @Test
    void invalidUtf8OrAHugeNumberAnywhereInTheBodyIsAParseError() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        String digits = "9".repeat(5_000);
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"x\":" + digits + "}",
                "{\"jsonrpc\":\"2.0\",\"id\":" + digits + ",\"method\":\"ping\"}")) {
            HttpResponse<String> answer = send(post(body).header("Mcp-Session-Id", session));
            expectError(answer, 400, -32700);
            assertTrue(JSON.readTree(answer.body()).path("id").isNull(), answer.body());
        }
        byte[] badUtf8 = (PING.substring(0, PING.length() - 1) + ",\"x\":\"\u00e9\"}").getBytes(StandardCharsets.UTF_8);
        badUtf8[badUtf8.length - 3] = 0x28; // e-acute is C3 A9: C3 followed by a parenthesis is no UTF-8
        expectError(send(request().header("Content-Type", "application/json").header("Accept", ACCEPT)
                .header("Mcp-Session-Id", session).POST(HttpRequest.BodyPublishers.ofByteArray(badUtf8))), 400, -32700);

        HttpResponse<String> ping = send(post(PING).header("Mcp-Session-Id", session));
        assertEquals(200, ping.statusCode(), ping.body());
    }

    /**
     * Accept is read as HTTP defines it (RFC 9110): every line of it, each media range by its type, and one
     * with {@code q=0} refused. Two lines that list the two types between them are accepted; types that only
     * begin with theirs, or that are refused with {@code q=0}, are not.
     */
    @Test
    void acceptIsReadAsAListOfMediaRangesOverEveryLine() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();

        HttpResponse<String> twoLines = send(request().header("Content-Type", "application/json")
                .header("Accept", "application/json").header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).POST(HttpRequest.BodyPublishers.ofString(PING)));
        assertEquals(200, twoLines.statusCode(), twoLines.body());
        HttpResponse<String> weighted = send(request().header("Content-Type", "application/json")
                .header("Accept", "Application/JSON;q=0.9, text/event-stream ; q=1").header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(PING)));
        assertEquals(200, weighted.statusCode(), weighted.body());
        for (String accept : List.of("application/json-seq, text/event-streamx", "application/json;q=0, text/event-stream",
                "application/json, text/event-stream;q=0.000")) {
            expectError(send(request().header("Content-Type", "application/json").header("Accept", accept)
                    .header("Mcp-Session-Id", session).POST(HttpRequest.BodyPublishers.ofString(PING))), 406, -32600);
        }
        HttpResponse<String> stream = send(request().GET().header("Accept", "text/event-stream;q=0")
                .header("Mcp-Session-Id", session));
        expectError(stream, 406, -32600);
        assertTrue(stream.body().contains("Accept must list text/event-stream"), stream.body());
    }

    /**
     * A body within 1 MiB that holds hundreds of thousands of values would become a tree of tens of megabytes in
     * the SDK, some at once: more tokens than {@value JsonRpcReader#MAX_TOKENS} is 413 under the request's id.
     */
    @Test
    void aBodyOfTooManyTokensIsTooLargeUnderItsId() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        String objects = String.join(",", Collections.nCopies(300_000, "{}"));
        HttpResponse<String> answer = send(post("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"gitea_get_runtime_context\",\"arguments\":{\"a\":[" + objects + "]}}}")
                .header("Mcp-Session-Id", session));

        expectError(answer, 413, -32600);
        assertEquals(13, JSON.readTree(answer.body()).path("id").asInt(), answer.body());
        assertTrue(answer.body().contains("more than " + JsonRpcReader.MAX_TOKENS + " JSON tokens"), answer.body());
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)).statusCode());
    }

    @Test
    void traceIsRefusedWithoutEchoEvenWithAForeignHostAndOrigin() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String answer = raw("TRACE /mcp HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\n"
                + "X-Secret: echo-me\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 403") || answer.startsWith("HTTP/1.1 405"), answer);
        assertFalse(answer.contains("echo-me"), answer);
        String local = raw("TRACE /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nX-Secret: echo-me\r\n"
                + "Connection: close\r\n\r\n");
        assertTrue(local.startsWith("HTTP/1.1 405"), local);
        assertFalse(local.contains("echo-me"), local);
        assertClean(answer + local);
    }

    @Test
    void aMalformedRequestLineGetsAJsonRpcErrorThatNamesNoServer() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String answer = raw("GARBAGE\u0001 / NOT-HTTP\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertClean(answer);
        // An HTTP version Jetty does not speak is the client's mistake: -32600, never an internal error.
        String version = raw("POST /mcp HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n");
        assertTrue(version.startsWith("HTTP/1.1 505"), version);
        assertTrue(version.contains("\"code\":-32600"), version);
        assertClean(version);
    }

    /**
     * What the container refuses before the guard sees it is said in HTTP's words for its status: a URI too long
     * and an expectation the server cannot meet were both "Bad Request", as if the request were malformed.
     */
    @Test
    void aContainersRefusalSaysWhatItsStatusMeans() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String host = "Host: 127.0.0.1:" + running.port() + "\r\nConnection: close\r\n";
        String longUri = raw("GET /mcp?" + "a".repeat(100_000) + " HTTP/1.1\r\n" + host + "\r\n");
        assertTrue(longUri.startsWith("HTTP/1.1 414"), longUri);
        assertTrue(longUri.contains("\"code\":-32600,\"message\":\"URI Too Long\""), longUri);
        String expectation = raw("POST /mcp HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nAccept: "
                + ACCEPT + "\r\nExpect: 999-never\r\nContent-Length: 2\r\n\r\n{}");
        assertTrue(expectation.startsWith("HTTP/1.1 417"), expectation);
        assertTrue(expectation.contains("\"code\":-32600,\"message\":\"Expectation Failed\""), expectation);
        assertClean(longUri + expectation);
    }

    /**
     * A response to no request of the server's is the client's mistake: 400 with a JSON-RPC error without
     * an id (the MCP specification), where the SDK's failure made it a 500 with the response's own id; so is one
     * that holds both a result and an error, or neither, which the SDK answered under its id.
     */
    @Test
    void aResponseToNoRequestIsBadRequestWithoutAnId() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String response : new String[] {"\"result\":{}", "\"error\":{\"code\":1,\"message\":\"x\"}",
                "\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}", "\"neither\":0"}) {
            HttpResponse<String> refused = send(post("{\"jsonrpc\":\"2.0\",\"id\":\"zz\"," + response + "}")
                    .header("Mcp-Session-Id", session));
            expectError(refused, 400, -32600);
            assertTrue(JSON.readTree(refused.body()).path("id").isNull(), refused.body());
        }
        assertEquals(200, send(post(PING).header("Mcp-Session-Id", session)).statusCode());
    }

    /** A body that begins with UTF-8's byte order mark is served, as a line that does is over stdio (RFC 8259, §8.1). */
    @Test
    void aBodyThatBeginsWithAByteOrderMarkIsServed() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();

        HttpResponse<String> ping = send(post("\uFEFF" + PING).header("Mcp-Session-Id", session));

        assertEquals(200, ping.statusCode(), ping.body());
        assertTrue(ping.body().contains("\"result\":{}"), ping.body());
    }

    /**
     * A request the container answers itself ({@code OPTIONS *}: no path at all) is a method the endpoint
     * does not serve, never an unknown session (it was 404 with -32001).
     */
    @Test
    void optionsStarIsAMethodNotAllowedNotAnUnknownSession() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String answer = raw("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 405"), answer);
        assertTrue(answer.contains("\"code\":-32600") && answer.contains("Allow: GET, POST, DELETE"), answer);
        assertClean(answer);
    }

    /**
     * A body declared larger than the limit is refused (413, a JSON-RPC error) before a byte of it is
     * read. Sent as headers alone: a client still writing two megabytes when the server answers and
     * closes can fail its write before it reads the answer, and a busy host made that race real.
     */
    private void assertTooLargeBeforeItsBody(String session) throws IOException {
        String answer = raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + running.port() + "\r\nContent-Type: "
                + "application/json\r\nAccept: " + ACCEPT + "\r\nMcp-Session-Id: " + session + "\r\nContent-Length: "
                + (2 << 20) + "\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
        String body = answer.substring(answer.indexOf("{"), answer.lastIndexOf("}") + 1);
        assertEquals(-32600, JSON.readTree(body).path("error").path("code").asInt(), answer);
        assertClean(answer);
    }
}
