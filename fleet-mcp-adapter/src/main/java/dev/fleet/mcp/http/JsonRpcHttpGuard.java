package dev.fleet.mcp.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.http.OriginRule;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcLine;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Fault;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.modern.ModernEra;
import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In front of the SDK's servlet: every HTTP answer is JSON-RPC and HTTP only (docs/CONTRACT.md). It
 * answers itself what the SDK would answer badly (an HTML page, a serialised Java exception), so
 * the SDK only ever sees a well-formed request for the endpoint, and anything the SDK still
 * answers with an error goes through {@link ErrorTranslatingResponse}.
 *
 * <p>In order: the path must be the endpoint (404); the method POST, GET or DELETE (405, which also
 * refuses TRACE without echoing anything); {@code Origin} and {@code Host} must pass the
 * {@link OriginRule} (403). A POST must be {@code application/json} (415), accept JSON and an
 * event stream (406), fit {@link HttpLimits#maxBodyBytes()} (413) and arrive at a pace
 * ({@link CachedBodyRequest#read}: else its connection is closed), be JSON in valid UTF-8 throughout,
 * its numbers within Jackson's default length (400, -32700), holding one JSON-RPC object (400,
 * -32600), and carry {@code Mcp-Session-Id} unless it is {@code initialize} (400, -32600), with an
 * {@code MCP-Protocol-Version} the transport serves, if any, each header at most once (400, -32600; so too a GET or
 * DELETE: {@link SessionHeaders}).
 * Params the SDK cannot read, or an {@code initialize} whose params exceed
 * {@link RequestParams#MAX_INITIALIZE_PARAMS_BYTES}, get 400 with -32602; an {@code initialize} beyond
 * {@link HttpLimits#maxSessions()} gets 503 with -32000 ({@link SessionCap}). An unknown or expired
 * session gets 404 with -32001 (the SDK finds out, this translates).
 *
 * <p>A POST whose message claims the 2026-07-28 revision ({@link ModernEra#claims}) passes the same checks
 * up to the JSON-RPC object, then goes to {@link ModernPost} and the SDK's servlet of that era, which needs no
 * session.
 */
final class JsonRpcHttpGuard implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcHttpGuard.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OriginRule origins;
    private final int maxBodyBytes;
    /** How long a body may take to arrive whole after its headers, besides its pace: the header deadline again. */
    private final Duration bodyDeadline;
    /** Reads a body once; duplicate keys as the SDK's servlet reads them (the last counts). */
    private final JsonRpcReader reader;
    private final McpJsonMapper sdkMapper;
    private final SessionCap sessions;
    private final ModernPost modern;
    /** A 2025-era request's session and version headers, judged after {@code initialize}. */
    private final SessionHeaders headers;

    /**
     * @param modern the SDK's servlet of the 2026-07-28 era, which a POST claiming that revision goes to
     * @param versions the versions the SDK's 2025-era transport serves
     */
    JsonRpcHttpGuard(OriginRule origins, HttpLimits limits, McpJsonMapper sdkMapper, SessionCap sessions,
            HttpServlet modern, List<String> versions) {
        this.origins = Objects.requireNonNull(origins, "origins");
        this.maxBodyBytes = limits.maxBodyBytes();
        this.bodyDeadline = limits.headerDeadline();
        this.reader = JsonRpcReader.plain(maxBodyBytes);
        this.sdkMapper = Objects.requireNonNull(sdkMapper, "sdkMapper");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.modern = new ModernPost(modern);
        this.headers = new SessionHeaders(versions);
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        JsonRpcId id = null;
        try {
            JsonRpcHttpError refused = refusal(request);
            if (refused != null) {
                refused.writeClosing(response);
                return;
            }
            if (!"POST".equals(request.getMethod())) {
                JsonRpcHttpError unserved = headers.refusal(request);
                if (unserved != null) {
                    unserved.write(response, null);
                    return;
                }
                forward(MediaTypes.asAccepted(request), response, chain, null);
                return;
            }
            CachedBodyRequest body;
            try {
                body = CachedBodyRequest.read(MediaTypes.asAccepted(request), maxBodyBytes, bodyDeadline);
            } catch (IOException | RuntimeException unread) { // Jetty's BadMessageException is a RuntimeException
                LOG.debug("HTTP POST body not read whole: {}", unread.toString());
                CachedBodyRequest.hangUp(request);
                return;
            }
            if (body == null) {
                JsonRpcHttpError.tooLarge(maxBodyBytes).writeClosing(response);
                return;
            }
            JsonRpcMessage message = jsonRpcMessage(body, response);
            if (message == null) {
                return;
            }
            id = message.id();
            forwardMessage(body, message, response, chain);
        } catch (IOException | ServletException | RuntimeException e) {
            // The client sees one line; the operator's log says what happened.
            LOG.warn("HTTP {} {} failed: {}", request.getMethod(), request.getRequestURI(), e.toString());
            JsonRpcHttpError.forStatus(500).write(response, id);
        }
    }

    /** The body as one JSON-RPC message, or null once the answer saying it is not one has been written. */
    private JsonRpcMessage jsonRpcMessage(CachedBodyRequest request, HttpServletResponse response) throws IOException {
        byte[] body = request.body();
        // Not UTF-8 (the reader skips unrouted members undecoded; the SDK decodes all), or empty: no JSON text.
        JsonRpcLine line = request.utf8() ? reader.read(body, body.length) : null;
        if (line == null || line.blank()) {
            JsonRpcHttpError.PARSE.write(response, null);
            return null;
        }
        JsonRpcMessage message = line.batch() ? null : line.message();
        if (message instanceof Invalid many && many.fault() == Fault.TOO_MANY_TOKENS) {
            JsonRpcId named = many.id();
            JsonRpcHttpError.TOO_MANY_TOKENS.write(response, named != null && named.fitsTheSdk() ? named : null);
            return null;
        }
        if (message instanceof Invalid invalid && invalid.wholeLine() && invalid.fault() != Fault.LINE_NOT_AN_OBJECT
                && invalid.fault() != Fault.BATCH_TOO_LARGE) {
            JsonRpcHttpError.PARSE.write(response, null);
            return null;
        }
        // A response that is none (result and error both), no message at all, or a request under an id the SDK cannot
        // take is never answered under its id (a response's names a request of the server's), as over stdio.
        if (message == null || message instanceof Invalid invalid && (invalid.wholeLine()
                || invalid.fault() == Fault.MALFORMED_RESPONSE || invalid.fault() == Fault.NEITHER)
                || !message.parts().versioned() || message.idTheSdkCannotTake()) {
            JsonRpcHttpError.NOT_A_REQUEST.write(response, null);
            return null;
        }
        if (message.answersToo()) { // no request (§12.1), as stdio and the relay judge it
            JsonRpcHttpError.REQUEST_ANSWERS_TOO.write(response, message.id());
            return null;
        }
        return message;
    }

    /**
     * A POSTed message to the SDK, unless it lacks a session, has params the SDK cannot read, or is an
     * {@code initialize} beyond the session cap.
     */
    private void forwardMessage(CachedBodyRequest request, JsonRpcMessage message, HttpServletResponse response,
            FilterChain chain) throws IOException, ServletException {
        if (ModernEra.claims(message.method(), message.parts().params())) {
            modern.serve(request, message, response);
            return;
        }
        JsonRpcId id = message.id();
        boolean initialize = "initialize".equals(message.method());
        JsonRpcHttpError unserved = initialize ? null : headers.refusal(request);
        if (unserved != null) {
            unserved.write(response, id);
            return;
        }
        JsonRpcHttpError unreadable = unreadableParams(message, request.body());
        if (unreadable != null) {
            unreadable.write(response, id);
            return;
        }
        if (UnaskedRoots.accepted(message, () -> sessions.holds(request.getHeader(SessionHeaders.SESSION)), response)) {
            return;
        }
        if (message instanceof Response) {
            // The SDK fails (500) on an answer to no request of its own: the client's mistake, answered (as MCP
            // says) with an error status and a JSON-RPC error without an id.
            forward(request, response, chain, null, status -> status == 500 ? JsonRpcHttpError.ANSWERS_NO_REQUEST
                    : JsonRpcHttpError.forStatus(status));
            return;
        }
        if (!initialize) {
            forward(request, response, chain, id);
            return;
        }
        // Checked last, so a request refused for any other reason never takes a place.
        if (!sessions.tryStart()) {
            JsonRpcHttpError.TOO_MANY_SESSIONS.write(response, id);
            return;
        }
        try {
            forward(request, response, chain, id);
        } finally {
            sessions.started();
        }
    }

    /** The request to the SDK; an error it answers is rewritten as a JSON-RPC error. */
    private static void forward(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
            JsonRpcId id) throws IOException, ServletException {
        forward(request, response, chain, id, JsonRpcHttpError::forStatus);
    }

    /** The request to the SDK; an error status it answers becomes {@code errors}' JSON-RPC error. */
    private static void forward(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
            JsonRpcId id, IntFunction<JsonRpcHttpError> errors) throws IOException, ServletException {
        ErrorTranslatingResponse translated = new ErrorTranslatingResponse(response);
        chain.doFilter(request, translated);
        if (translated.errorStatus() != 0) {
            errors.apply(translated.errorStatus()).write(response, id);
        }
    }

    /** A request whose params the SDK could not read (it would never answer it), as -32602; else null. */
    private JsonRpcHttpError unreadableParams(JsonRpcMessage message, byte[] body) throws IOException {
        if (message.method() == null || message instanceof Notification) {
            return null; // a response or a notification: the SDK answers neither
        }
        Params params = message.parts().params();
        if (params != null && !params.usable()) {
            return JsonRpcHttpError.invalidParams("params must be an object");
        }
        Object fields;
        try {
            fields = params == null || params.kind() == Params.Kind.NULL ? null
                    : JSON.readValue(new String(body, params.start(), params.end() - params.start(), UTF_8), Map.class);
        } catch (JacksonException beyondJacksonsBounds) { // a number of a million digits: refused, never decoded
            return JsonRpcHttpError.PARSE;
        }
        String problem = RequestParams.problem(sdkMapper, message.method(), fields);
        return problem == null ? null
                : JsonRpcHttpError.invalidParams("for " + RequestParams.clientText(message.method()) + ": " + problem);
    }

    /** The refusal that needs no body: path, method, Origin/Host, media types. Null when none. */
    private JsonRpcHttpError refusal(HttpServletRequest request) {
        if (!StreamableHttpEndpoint.ENDPOINT.equals(request.getRequestURI())) {
            return JsonRpcHttpError.NOT_FOUND;
        }
        String method = request.getMethod();
        if (!JsonRpcHttpError.METHODS.contains(method)) {
            return JsonRpcHttpError.METHOD_NOT_ALLOWED;
        }
        if (!origins.accepts(request::getHeaders)) {
            return JsonRpcHttpError.forbidden(origins, request::getHeaders);
        }
        JsonRpcHttpError media = MediaTypes.refusal(request);
        if (media != null) {
            return media;
        }
        return "POST".equals(method) && request.getContentLengthLong() > maxBodyBytes
                ? JsonRpcHttpError.tooLarge(maxBodyBytes) : null;
    }
}
