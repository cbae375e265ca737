package dev.fleet.mcp.http;

import dev.fleet.http.OriginRule;
import dev.fleet.metrics.Exposition;
import dev.fleet.metrics.MetricsScrape;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} (docs/CONTRACT.md, "Metrics"): each scrape is a fresh read-only assessment, as the exposition
 * the {@code Accept} header asks for (OpenMetrics when it names it, the text format 0.0.4
 * otherwise). The same Origin and Host rule as the MCP endpoint applies; other methods get 405.
 * It answers beside the MCP endpoint, not through it: a scraper has no MCP session.
 */
final class MetricsRoute {

    static final String PATH = "/metrics";

    private static final Logger LOG = LoggerFactory.getLogger(MetricsRoute.class);

    private final MetricsScrape scrape;
    private final OriginRule origins;

    MetricsRoute(MetricsScrape scrape, OriginRule origins) {
        this.scrape = Objects.requireNonNull(scrape, "scrape");
        this.origins = Objects.requireNonNull(origins, "origins");
    }

    /** Whether {@code request} is for this route. */
    static boolean handles(HttpServletRequest request) {
        return PATH.equals(request.getRequestURI());
    }

    void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        boolean head = "HEAD".equals(method);
        if (!head && !"GET".equals(method)) {
            JsonRpcHttpError.METRICS_METHOD_NOT_ALLOWED.write(response, null);
            return;
        }
        if (!origins.accepts(request::getHeaders)) {
            JsonRpcHttpError.forbidden(origins, request::getHeaders).write(response, null);
            return;
        }
        Exposition exposition;
        try {
            exposition = scrape.answer(request.getHeaders("Accept"));
        } catch (RuntimeException e) {
            // An assessment answers every registry or process-table problem as a verdict; this is a bug.
            LOG.warn("GET {}: {}", PATH, e.toString());
            JsonRpcHttpError.forStatus(500).write(response, null);
            return;
        }
        byte[] body = exposition.body();
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(exposition.contentType());
        response.setContentLength(body.length);
        response.setHeader("Cache-Control", "no-store"); // every scrape is the fleet now
        response.setHeader("Vary", "Accept");
        if (!head) {
            response.getOutputStream().write(body);
        }
        response.flushBuffer();
    }
}
