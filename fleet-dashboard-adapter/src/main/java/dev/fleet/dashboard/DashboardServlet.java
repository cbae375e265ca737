package dev.fleet.dashboard;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import dev.fleet.http.OriginRule;
import dev.fleet.metrics.Exposition;
import dev.fleet.metrics.MetricsScrape;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every path of the dashboard: the page ({@code /}, drawn with the latest verdict by {@link
 * FirstVerdictPage}, and its script and style), {@code /events} (the
 * live verdict as server-sent events), {@code /verdict} (the JSON of {@code fleet assess --format json},
 * assessed now), {@code /metrics} (as the MCP endpoint answers it) and {@code /roster} (the roster's
 * members in its order, the page's order of cards). GET and HEAD only; the Origin
 * and Host rule of the HTTP transport in front of all of them. Errors are a status and one line of
 * text, never a stack trace.
 */
final class DashboardServlet extends HttpServlet {

    static final String EVENTS = "/events";
    /** The methods the dashboard serves, in the order its {@code Allow} header names them. */
    static final List<String> METHODS = List.of("GET", "HEAD");
    static final String VERDICT = "/verdict";
    static final String METRICS = "/metrics";
    static final String ROSTER = "/roster";

    /**
     * The page may load only its own script and style and talk only to its own origin: even text that
     * slipped past escaping could run nothing.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** How long a page served before the first assessment waits for it: the page then says it is waiting. */
    private static final Duration FIRST_VERDICT_PATIENCE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(DashboardServlet.class);

    private final transient AssessFleetInventoryUseCase assessment;
    private final transient MetricsScrape metrics;
    private final transient VerdictStream stream;
    private final transient PageAsset roster;
    private final transient FirstVerdictPage page;
    /** Null until the port is bound; until then every request is refused (503). */
    private transient volatile OriginRule origins;

    DashboardServlet(AssessFleetInventoryUseCase assessment, MetricsScrape metrics, VerdictStream stream,
            PageAsset roster, FirstVerdictPage page) {
        this.assessment = Objects.requireNonNull(assessment, "assessment");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.roster = Objects.requireNonNull(roster, "roster");
        this.page = Objects.requireNonNull(page, "page");
    }

    /** The Origin and Host rule of the port bound; requests are answered from now on. */
    void acceptOnly(OriginRule rule) {
        origins = Objects.requireNonNull(rule, "rule");
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        boolean head = "HEAD".equals(method);
        if (!head && !"GET".equals(method)) {
            response.setHeader("Allow", String.join(", ", METHODS));
            refuse(response, 405, "method not allowed: the dashboard answers GET and HEAD");
            return;
        }
        OriginRule rule = origins;
        if (rule == null) {
            refuse(response, 503, "the dashboard is starting: try again");
            return;
        }
        if (!rule.accepts(request::getHeaders)) {
            refuse(response, 403, rule.refusal(request::getHeaders));
            return;
        }
        String path = request.getRequestURI();
        try {
            Optional<PageAsset> asset = ROSTER.equals(path) ? Optional.of(roster) : PageAsset.at(path);
            if ("/".equals(path)) {
                answer(response, PageAsset.PAGE.contentType(), page.render(latestVerdict()), head);
            } else if (asset.isPresent()) {
                answer(response, asset.get().contentType(), asset.get().body(), head);
            } else if (VERDICT.equals(path)) {
                byte[] json = (VerdictDocument.canonicalJson(assessment.assess()) + System.lineSeparator())
                        .getBytes(StandardCharsets.UTF_8);
                answer(response, "application/json", json, head);
            } else if (METRICS.equals(path)) {
                Exposition exposition = metrics.answer(request.getHeaders("Accept"));
                response.setHeader("Vary", "Accept");
                answer(response, exposition.contentType(), exposition.body(), head);
            } else if (EVENTS.equals(path) && head) {
                eventStreamHeaders(response); // what a GET would begin with, and no stream
            } else if (EVENTS.equals(path)) {
                events(request, response);
            } else {
                refuse(response, 404, "not found: the dashboard serves /, " + EVENTS + ", " + VERDICT + ", "
                        + METRICS + " and " + ROSTER);
            }
        } catch (RuntimeException e) {
            // An assessment answers every registry or process-table problem as a verdict: this is a bug.
            LOG.warn("dashboard: GET {}: {}", path, e.toString());
            refuse(response, 500, "internal error: the dashboard could not answer; see its log");
        }
    }

    /**
     * The verdict of the stream's last look, for the page as served; a page asked for in the first
     * moments waits a little for the first assessment rather than showing none.
     */
    private Verdict latestVerdict() {
        try {
            return stream.latestVerdict(FIRST_VERDICT_PATIENCE);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void events(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!stream.reserve()) {
            refuse(response, 503, "too many open pages: close one and reload");
            return;
        }
        AsyncContext async;
        try {
            eventStreamHeaders(response);
            async = request.startAsync();
            async.setTimeout(0); // a page stays until it closes; the keep-alive finds it gone
        } catch (RuntimeException e) {
            stream.giveBack();
            throw e;
        }
        stream.open(async); // from here the page gives its place back itself, once
    }

    private static void eventStreamHeaders(HttpServletResponse response) {
        response.setStatus(200);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Accel-Buffering", "no");
    }

    private static void answer(HttpServletResponse response, String contentType, byte[] body, boolean head)
            throws IOException {
        response.setStatus(200);
        response.setContentType(contentType);
        response.setContentLength(body.length);
        response.setHeader("Cache-Control", "no-store"); // every answer is the fleet now
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        if (!head) {
            response.getOutputStream().write(body);
        }
    }

    /** A status and one line of text. */
    static void refuse(HttpServletResponse response, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(body.length);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.getOutputStream().write(body);
    }
}
