package dev.fleet.mcp.http;

import dev.fleet.http.BindAddress;
import dev.fleet.http.OriginRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who may speak to the endpoint and where it says it is: Origin and Host are parsed and compared
 * exactly (so DNS rebinding and look-alike origins are refused), and a wildcard bind is announced on
 * a real address and flagged as exposed beyond loopback.
 */
class HttpOriginsAndBindTest extends HttpSurfaceFixture {

    @Test
    void originsAreParsedAndComparedExactly() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        int port = running.port();
        for (String foreign : List.of("http://evil.example", "http://127.0.0.1:80@evil.example",
                "http://127.0.0.1:" + port + "@evil.example", "http://localhost:5/evil", "http://localhost:5",
                "http://localhost:" + port + "/evil", "https://127.0.0.1:" + port, "null", "http://[::1]:1")) {
            expectError(send(post(INITIALIZE).header("Origin", foreign)), 403, -32600);
        }
        for (String own : List.of("http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port)) {
            HttpResponse<String> accepted = send(post(INITIALIZE).header("Origin", own));
            assertEquals(200, accepted.statusCode(), own + ": " + accepted.body());
        }
        String rebound = raw("POST /mcp HTTP/1.1\r\nHost: rebound.evil.example:" + port + "\r\n"
                + "Content-Type: application/json\r\nAccept: " + ACCEPT + "\r\nContent-Length: " + INITIALIZE.length()
                + "\r\nConnection: close\r\n\r\n" + INITIALIZE);
        assertTrue(rebound.startsWith("HTTP/1.1 403"), rebound);
        // Two of a header, an own one first, are refused (400 or 403): a proxy or a cache in front may read the other.
        for (String twice : List.of("Host: 127.0.0.1:" + port + "\r\nHost: evil.example:" + port,
                "Host: 127.0.0.1:" + port + "\r\nOrigin: http://127.0.0.1:" + port + "\r\nOrigin: http://evil.example")) {
            String answer = raw("POST /mcp HTTP/1.1\r\n" + twice + "\r\nContent-Type: application/json\r\nAccept: "
                    + ACCEPT + "\r\nContent-Length: " + INITIALIZE.length() + "\r\nConnection: close\r\n\r\n"
                    + INITIALIZE);
            assertTrue(answer.startsWith("HTTP/1.1 403") || answer.startsWith("HTTP/1.1 400"), twice + ": " + answer);
        }
    }

    /**
     * Another site's page (its browser's {@code Sec-Fetch-Site}) is refused, and told so: its Origin and Host are
     * this server's own, and "foreign Origin or Host" sent its author to look for a wrong address or tunnel.
     */
    @Test
    void anotherSitesPageIsRefusedAndToldWhy() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        HttpResponse<String> framed = send(post(INITIALIZE).header("Origin", "http://127.0.0.1:" + running.port())
                .header("Sec-Fetch-Site", "same-site").header("Sec-Fetch-Mode", "cors").header("Sec-Fetch-Dest", "empty"));
        expectError(framed, 403, -32600);
        assertTrue(framed.body().contains("Forbidden: another site's page (Sec-Fetch-Site)"), framed.body());
        HttpResponse<String> own = send(post(INITIALIZE).header("Origin", "http://127.0.0.1:" + running.port())
                .header("Sec-Fetch-Site", "same-origin").header("Sec-Fetch-Mode", "cors").header("Sec-Fetch-Dest", "empty"));
        assertEquals(200, own.statusCode(), own.body());
        expectError(send(post(INITIALIZE).header("Origin", "http://evil.example").header("Sec-Fetch-Site", "cross-site")),
                403, -32600);
    }

    /** A loopback bind other than 127.0.0.1 is announced (and registered) where it listens, and answers there. */
    @Test
    void aLoopbackBindIsAnnouncedWhereItListens() throws Exception {
        for (String host : List.of("::1", "127.0.0.2")) {
            if (host.equals("::1") && !bindable(host)) {
                continue; // a host without IPv6: the IPv4 case still runs
            }
            try (RunningHttpServer bound = start(host, 0)) {
                running = bound;
                String expected = "http://" + (host.contains(":") ? "[::1]" : host) + ":" + bound.port() + "/mcp";
                assertEquals(expected, bound.endpoint().toString());
                HttpResponse<String> served = send(post(INITIALIZE));
                assertEquals(200, served.statusCode(), served.body());
            }
            running = null;
        }
    }

    private static boolean bindable(String host) {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getByName(host))) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void aWildcardBindIsAnnouncedOnARealAddressAndFlaggedAsExposed() throws Exception {
        assertEquals("127.0.0.1", new BindAddress("0", InetAddress.getByName("0")).announcedHost());
        assertEquals("127.0.0.1", new BindAddress("0.0.0.0", InetAddress.getByName("0.0.0.0")).announcedHost());
        assertEquals("[0:0:0:0:0:0:0:1]", OriginRule.uriHost("0:0:0:0:0:0:0:1"));
        // A refused page is told the address it should use, not the wildcard as the operator spelled it.
        assertEquals("forbidden: foreign Origin or Host; this server answers pages of 127.0.0.1:8766, [::1]:8766, "
                + "localhost:8766 only: through an SSH tunnel, forward the same port (ssh -L 8766:127.0.0.1:8766 HOST)",
                new BindAddress("0", InetAddress.getByName("0")).origins(8766).refusal());
        running = start("0", 0);
        assertEquals("http://127.0.0.1:" + running.port() + "/mcp", running.endpoint().toString());
        assertTrue(running.exposedBeyondLoopback());
        assertEquals(running.endpoint().toString(), registry.rows().get(0).endpoint());
        try (RunningHttpServer loopback = start(StreamableHttpEndpoint.DEFAULT_HOST, 0)) {
            assertFalse(loopback.exposedBeyondLoopback());
        }
    }
}
