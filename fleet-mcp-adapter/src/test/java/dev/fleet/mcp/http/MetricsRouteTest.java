package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.metrics.BuildInfo;
import dev.fleet.metrics.MetricsScrape;
import dev.fleet.testing.Patience;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} over real HTTP, beside the MCP endpoint: a fresh assessment per scrape. */
class MetricsRouteTest {

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final FleetMcpServer fleet = Fixtures.httpServer(registry);
    private final AtomicInteger assessments = new AtomicInteger();
    private final MetricsScrape scrape = new MetricsScrape(() -> {
        assessments.incrementAndGet();
        return FleetClassifier.classify(Fixtures.duplicateAuthor(Fixtures.httpIdentity().answeredBy()));
    }, Roster.defaultRoster(), new BuildInfo("9.9.9", "abc123"));

    @Test
    void aScrapeGetsTheTextFormatOrOpenMetricsWhenItAsksAndEachIsAFreshAssessment() throws Exception {
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, scrape, "127.0.0.1", 0)) {
            HttpResponse<String> text = send(HttpRequest.newBuilder(metrics(running)).GET());
            assertEquals(200, text.statusCode(), text.body());
            assertEquals("text/plain; version=0.0.4; charset=utf-8", text.headers().firstValue("Content-Type")
                    .orElseThrow());
            assertTrue(text.body().contains("fleet_mutation_gate_satisfied 0.0"), text.body());
            assertTrue(text.body().contains("fleet_blocked{code=\"duplicate_member\"} 1.0"), text.body());
            assertTrue(text.body().contains("fleet_build_info{commit=\"abc123\",version=\"9.9.9\"} 1.0"), text.body());
            assertFalse(text.body().contains("# EOF"));

            HttpResponse<String> open = send(HttpRequest.newBuilder(metrics(running))
                    .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
                    .GET());
            assertEquals(200, open.statusCode(), open.body());
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
                    open.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(open.body().endsWith("# EOF\n"), open.body());
            assertEquals(2, assessments.get(), "every scrape assesses the fleet anew");
        }
    }

    /** Every Accept line is read, and its weights kept: a scraper that refuses OpenMetrics ({@code q=0}) gets the text. */
    @Test
    void theAcceptLinesAreWeighedAsHttpWeighsThem() throws Exception {
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, scrape, "127.0.0.1", 0)) {
            HttpResponse<String> refused = send(HttpRequest.newBuilder(metrics(running))
                    .header("Accept", "application/openmetrics-text;q=0, text/plain").GET());
            assertEquals("text/plain; version=0.0.4; charset=utf-8",
                    refused.headers().firstValue("Content-Type").orElseThrow());

            HttpResponse<String> twoLines = send(HttpRequest.newBuilder(metrics(running))
                    .header("Accept", "text/plain;q=0.5").header("Accept", "application/openmetrics-text").GET());
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
                    twoLines.headers().firstValue("Content-Type").orElseThrow());
        }
    }

    @Test
    void otherMethodsAndForeignHostsAreRefusedAsJsonRpcErrors() throws Exception {
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, scrape, "127.0.0.1", 0)) {
            HttpResponse<String> post = send(HttpRequest.newBuilder(metrics(running))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertEquals(405, post.statusCode());
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
            assertTrue(post.body().contains("\"code\":-32600"), post.body());

            HttpResponse<String> foreign = send(HttpRequest.newBuilder(metrics(running))
                    .header("Origin", "http://evil.example").GET());
            assertEquals(403, foreign.statusCode());
            HttpResponse<String> twice = send(HttpRequest.newBuilder(metrics(running))
                    .header("Origin", "http://127.0.0.1:" + running.port()).header("Origin", "http://evil.example").GET());
            assertEquals(403, twice.statusCode(), "a second Origin, which a proxy in front may read");
            assertEquals(0, assessments.get(), "a refused scrape assesses nothing");
        }
    }

    @Test
    void withoutMetricsThePathIsNotFound() throws Exception {
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, "127.0.0.1", 0)) {
            assertEquals(404, send(HttpRequest.newBuilder(metrics(running)).GET()).statusCode());
        }
    }

    private static URI metrics(RunningHttpServer running) {
        return URI.create("http://127.0.0.1:" + running.port() + MetricsRoute.PATH);
    }

    /** {@code request} with a bounded wait, sent by a fresh JDK client: plain HTTP, as a scraper speaks it. */
    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Patience.mcpTimeout()).build();
        return client.send(request.timeout(Patience.mcpTimeout()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
