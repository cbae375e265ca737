package dev.fleet.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import dev.fleet.testing.Patience;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the dashboard answers on each path, and how it refuses what it does not serve. */
class DashboardTest extends DashboardFixture {

    @Test
    void thePageItsScriptAndItsStyleComeFromTheJarAndLoadNothingElse() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        HttpResponse<String> page = get("/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        assertEquals(DashboardServlet.CONTENT_SECURITY_POLICY,
                page.headers().firstValue("Content-Security-Policy").orElseThrow());
        assertTrue(page.body().contains("<script src=\"/dashboard.js\"></script>"), page.body());
        for (String path : List.of("/", "/dashboard.js", "/dashboard.css")) {
            HttpResponse<String> asset = get(path);
            assertEquals(200, asset.statusCode(), path);
            // No CDN, no framework from the network: nothing the page loads names another host.
            assertFalse(asset.body().matches("(?s).*(https?:)?//[a-zA-Z0-9.-]+\\.[a-z]{2,}/.*"), path + " names a host");
            assertFalse(asset.body().contains("innerHTML"), path + " writes markup from data");
        }
        assertTrue(get("/dashboard.js").headers().firstValue("Content-Type").orElseThrow()
                .startsWith("text/javascript"));
    }

    @Test
    void verdictIsTheJsonOfAssessAndMetricsTheExposition() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        Verdict verdict = fleet.get();
        HttpResponse<String> answer = get(DashboardServlet.VERDICT);
        assertEquals(200, answer.statusCode());
        assertEquals("application/json", answer.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(VerdictDocument.canonicalJson(verdict) + System.lineSeparator(), answer.body());
        HttpResponse<String> metrics = get(DashboardServlet.METRICS);
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("fleet_mutation_gate_satisfied 1"), metrics.body());
    }

    /** The verdict lists members by namespace; the page takes the roster's own order from here. */
    @Test
    void rosterIsTheRostersMembersInTheRostersOrder() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        HttpResponse<String> roster = get(DashboardServlet.ROSTER);
        assertEquals(200, roster.statusCode());
        assertEquals("application/json", roster.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"members\":[" + String.join(",", Roster.defaultRoster().members().stream()
                .map(member -> "{\"namespace\":\"" + member.namespace() + "\",\"profile\":\"" + member.profile()
                        + "\",\"role\":\"" + member.role() + "\"}").toList()) + "]}", roster.body());
        assertTrue(roster.body().indexOf("gitea-reviewer") < roster.body().indexOf("gitea-controller"), roster.body());
    }

    @Test
    void eachDigestChangeIsAnnouncedOnceAndAHeartbeatNever() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        Verdict healthy = fleet.get();
        try (EventStream page = new EventStream()) {
            assertEquals(healthy.verdictDigest(), page.nextDigest(), "a page gets the verdict now at once");
            // Heartbeats move every row's last_heartbeat_at, which the digest leaves out: no event.
            for (int beat = 1; beat <= 5; beat++) {
                fleet.set(verdict(beat, false));
                Thread.sleep(INTERVAL.toMillis() * 2);
            }
            Verdict duplicated = verdict(6, true);
            fleet.set(duplicated);
            assertNotEquals(healthy.verdictDigest(), duplicated.verdictDigest());
            assertEquals(duplicated.verdictDigest(), page.nextDigest(), "the next event is the duplicate, no heartbeat");
            fleet.set(verdict(7, false));
            assertEquals(healthy.verdictDigest(), page.nextDigest(), "and the one after it, the duplicate gone");
        }
    }

    /**
     * The page hears the dashboard at once and every keep-alive period, even while nothing changes: an alive event
     * with the latest look's time (a verdict event's is its last change's), so that silence means a dashboard gone.
     */
    @Test
    void aliveEventsSayWhenTheLatestLookWasAtOnceAndEveryPeriod() throws Exception {
        start(Duration.ofMillis(200));
        try (EventStream page = new EventStream()) {
            page.nextDigest();
            String first = page.nextAlive();
            assertTrue(first.matches("\\{\"looked_at\":\"[0-9T:.Z-]+\",\"keep_alive_ms\":200}"), first);
            for (int period = 0; period < 3; period++) {
                assertTrue(page.nextAlive().endsWith(",\"keep_alive_ms\":200}"));
            }
        }
    }

    @Test
    void anEventCarriesTheBytesOfAssessOnOneLine() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        try (EventStream page = new EventStream()) {
            assertEquals(VerdictDocument.canonicalJson(fleet.get()), page.nextData());
        }
    }

    /** HEAD of the event stream answers what a GET begins with: it was 404, with a body saying /events is served. */
    @Test
    void headOfTheEventStreamIsItsHeadersAlone() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        HttpResponse<String> head = http.send(HttpRequest.newBuilder(uri(DashboardServlet.EVENTS))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertTrue(head.headers().firstValue("Content-Type").orElseThrow().startsWith("text/event-stream"));
        assertEquals("", head.body());
        assertEquals(0, running.openPages(), "no stream is held for a HEAD");
    }

    @Test
    void badRequestsGetAStatusAndOneLineNeverAStackTraceOrTheServersName() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/")).POST(HttpRequest.BodyPublishers
                .ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        assertEquals(404, get("/nothing-here").statusCode());
        String optionsStar = raw("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:" + running.port()
                + "\r\nConnection: close\r\n\r\n");
        assertTrue(optionsStar.startsWith("HTTP/1.1 405") && optionsStar.contains("Allow: GET, HEAD"), optionsStar);
        HttpResponse<String> foreign = http.send(HttpRequest.newBuilder(uri("/verdict"))
                .header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, foreign.statusCode());
        int port = running.port();
        assertEquals("forbidden: foreign Origin or Host; this server answers pages of 127.0.0.1:" + port + ", [::1]:"
                + port + ", localhost:" + port + " only: through an SSH tunnel, forward the same port (ssh -L " + port
                + ":127.0.0.1:" + port + " HOST)\n", foreign.body());
        String rebound = raw("GET /verdict HTTP/1.1\r\nHost: evil.example:" + running.port()
                + "\r\nConnection: close\r\n\r\n");
        assertTrue(rebound.startsWith("HTTP/1.1 403"), rebound);
        // Two of a header, an own one first, are refused (400 or 403): a proxy or a cache in front may read the other.
        String own = "127.0.0.1:" + running.port();
        for (String twice : List.of("Host: " + own + "\r\nHost: evil.example:" + running.port(),
                "Host: " + own + "\r\nOrigin: http://" + own + "\r\nOrigin: http://evil.example")) {
            String answer = raw("GET /verdict HTTP/1.1\r\n" + twice + "\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 403") || answer.startsWith("HTTP/1.1 400"), twice + ": " + answer);
        }
        String garbage = raw("\u0001\u0002 nonsense\r\n\r\n");
        assertTrue(garbage.startsWith("HTTP/1.1 400"), garbage);
        for (String answer : List.of(post.body(), foreign.body(), rebound, garbage)) {
            assertFalse(answer.contains("Exception") || answer.contains("at org.") || answer.contains("jetty")
                    || answer.contains("Jetty"), answer);
        }
        assertEquals(1, post.body().lines().count(), post.body());
        assertFalse(post.headers().firstValue("Server").isPresent());
    }

    /**
     * Another site's page in the operator's browser: an {@code <img>} that asks for {@code /events} sends no
     * {@code Origin} and this dashboard's own {@code Host}, and a browser closing it left its place taken until the
     * next keep-alive, so such a page held all 128 and the operator's own page got 503. The browser says where a
     * request came from ({@code Sec-Fetch-Site}): another site's is refused, and holds no place.
     */
    @Test
    void anotherSitesPageIsRefusedAndHoldsNoPlaceWhileTheOperatorsOwnPageAndALinkPass() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        for (int i = 0; i < Dashboard.MAX_PAGES + 8; i++) {
            HttpResponse<InputStream> image = http.send(fetched("/events", "cross-site", "no-cors", "image"),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = image.body()) {
                assertEquals(403, image.statusCode(), "an image of another site's page, " + i);
            }
        }
        assertEquals(0, running.openPages());
        // Another port of this host is the same site, not the same origin: a page there is refused too.
        assertEquals(403, send(fetched("/verdict", "same-site", "no-cors", "script")).statusCode());
        HttpResponse<String> framed = send(fetched("/", "cross-site", "navigate", "iframe"));
        assertEquals(403, framed.statusCode(), "framed");
        // Told why: its Origin and Host are the dashboard's own, so "foreign Origin or Host" misled.
        assertTrue(framed.body().startsWith("forbidden: another site's page (Sec-Fetch-Site)"), framed.body());
        // A navigation another site's speculation rules prefetch is no link a person followed: it would hold a stream.
        for (String purpose : List.of("prefetch", "prefetch;prerender")) {
            HttpResponse<InputStream> prefetched = http.send(HttpRequest.newBuilder(fetched("/events", "cross-site",
                    "navigate", "document"), (name, value) -> true).header("Sec-Purpose", purpose).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            prefetched.body().close();
            assertEquals(403, prefetched.statusCode(), purpose);
        }
        assertEquals(0, running.openPages());
        // The page's own requests, an address typed, a link followed from another site: each as before.
        assertEquals(200, send(fetched("/verdict", "same-origin", "cors", "empty")).statusCode());
        assertEquals(200, send(fetched("/", "none", "navigate", "document")).statusCode());
        assertEquals(200, send(fetched("/", "cross-site", "navigate", "document")).statusCode());
        HttpResponse<InputStream> own = http.send(fetched("/events", "same-origin", "cors", "empty"),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = own.body()) {
            assertEquals(200, own.statusCode());
            assertTrue(new String(body.readNBytes(20), StandardCharsets.UTF_8).startsWith("event: verdict"));
        }
    }

    /** A GET as a browser sends it, with the Fetch Metadata it adds: where from, in which mode, for what. */
    private HttpRequest fetched(String path, String site, String mode, String dest) {
        return HttpRequest.newBuilder(uri(path)).timeout(Patience.scaled(Duration.ofSeconds(30)))
                .header("Sec-Fetch-Site", site).header("Sec-Fetch-Mode", mode).header("Sec-Fetch-Dest", dest).build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBusyAddressIsOneClearError() {
        RunningDashboard first = start(Dashboard.KEEP_ALIVE);
        IllegalStateException busy = assertThrows(IllegalStateException.class, () -> Dashboard.start(fleet::get,
                metrics(), Roster.defaultRoster(), "127.0.0.1", first.port(), INTERVAL));
        assertEquals("cannot serve the dashboard on 127.0.0.1:" + first.port() + ": port " + first.port() + " is in "
                + "use (another dashboard?); pick another with --port, or --port 0 for any free one", busy.getMessage());
        assertEquals(URI.create("http://127.0.0.1:" + first.port() + "/"), first.page());
    }
}
