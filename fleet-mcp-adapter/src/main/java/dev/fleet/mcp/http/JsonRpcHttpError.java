package dev.fleet.mcp.http;

import dev.fleet.http.BodyByStatusErrorHandler;
import dev.fleet.http.OriginRule;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.modern.ModernEra;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpStatus;

/**
 * An HTTP error answer of the MCP endpoint: an HTTP status and a JSON-RPC error object with a fixed,
 * one-line message. Nothing else: no stack trace, no class name, no server or JDK version.
 *
 * @param status the HTTP status
 * @param code the JSON-RPC error code
 * @param message one line, written here, never taken from an exception
 */
record JsonRpcHttpError(int status, int code, String message) {

    static final int PARSE_ERROR = JsonRpcError.PARSE_ERROR;
    static final int INVALID_REQUEST = JsonRpcError.INVALID_REQUEST;
    static final int INTERNAL_ERROR = JsonRpcError.INTERNAL_ERROR;
    /** The code MCP servers use for an unknown or expired session. */
    static final int SESSION_NOT_FOUND = -32001;

    /** The methods the endpoint serves, in the order its {@code Allow} header names them. */
    static final List<String> METHODS = List.of("GET", "POST", "DELETE");

    /** Any path but the endpoint. */
    static final JsonRpcHttpError NOT_FOUND = invalidRequest(404,
            "Not found: the MCP endpoint is " + StreamableHttpEndpoint.ENDPOINT);
    /** PUT, PATCH, OPTIONS and the like: the transport knows three methods. */
    static final JsonRpcHttpError METHOD_NOT_ALLOWED = invalidRequest(405,
            "Method not allowed: use POST, GET or DELETE");
    /** Anything but GET or HEAD at {@link MetricsRoute#PATH}. */
    static final JsonRpcHttpError METRICS_METHOD_NOT_ALLOWED = invalidRequest(405,
            "Method not allowed: " + MetricsRoute.PATH + " answers GET and HEAD");
    /** DNS rebinding or a page of another site: see {@link OriginRule}. */
    static final JsonRpcHttpError FORBIDDEN_ORIGIN = invalidRequest(403, "Forbidden: foreign Origin or Host");
    /** A browser's page of another site, with this server's own Origin and Host: {@link OriginRule#accepts}. */
    static final JsonRpcHttpError FORBIDDEN_SITE = invalidRequest(403, "Forbidden: another site's page (Sec-Fetch-Site)");
    static final JsonRpcHttpError UNSUPPORTED_MEDIA_TYPE = invalidRequest(415,
            "Unsupported Media Type: Content-Type must be application/json");
    static final JsonRpcHttpError NOT_ACCEPTABLE = invalidRequest(406,
            "Not Acceptable: Accept must list application/json and text/event-stream");
    static final JsonRpcHttpError NOT_ACCEPTABLE_STREAM = invalidRequest(406,
            "Not Acceptable: Accept must list text/event-stream");
    static final JsonRpcHttpError PARSE = new JsonRpcHttpError(400, PARSE_ERROR, "Parse error: the body is not JSON");
    /** Valid JSON, but not one JSON-RPC 2.0 object (a batch, a bare value, another version). */
    static final JsonRpcHttpError NOT_A_REQUEST = invalidRequest(400,
            "Invalid Request: expected one JSON-RPC 2.0 message object");
    /** A message with a method and an id that holds a result or an error too: {@link JsonRpcMessage#ANSWERS_TOO}. */
    static final JsonRpcHttpError REQUEST_ANSWERS_TOO = invalidRequest(400,
            "Invalid Request: " + JsonRpcMessage.ANSWERS_TOO);
    static final JsonRpcHttpError SESSION_REQUIRED = invalidRequest(400,
            "Bad Request: Mcp-Session-Id header required (call initialize first)");
    /** A response whose id names no request the server sent (and waits for) in that session. */
    static final JsonRpcHttpError ANSWERS_NO_REQUEST = invalidRequest(400,
            "Invalid Request: a response to no request of this server's");
    static final JsonRpcHttpError UNKNOWN_SESSION = new JsonRpcHttpError(404, SESSION_NOT_FOUND,
            "Session not found: it expired or never existed; initialize a new one");

    static final int INVALID_PARAMS = JsonRpcError.INVALID_PARAMS;
    /** JSON-RPC's first implementation-defined server error: the server declines for now. */
    static final int SERVER_BUSY = JsonRpcError.SERVER_BUSY;

    static final JsonRpcHttpError TOO_MANY_SESSIONS = new JsonRpcHttpError(503, SERVER_BUSY,
            "Too many sessions: close one (DELETE) or wait for idle ones to expire");

    /** Params the SDK could not read; {@code why} is already one line. */
    static JsonRpcHttpError invalidParams(String why) {
        return new JsonRpcHttpError(400, INVALID_PARAMS, "Invalid params " + why);
    }

    /**
     * A 2025-era request whose {@code MCP-Protocol-Version} header names no version this transport serves
     * (the MCP specification: 400). The header is not echoed: it is any text a client chose.
     */
    static JsonRpcHttpError unsupportedVersion(List<String> served) {
        return invalidRequest(400, "Bad Request: unsupported MCP-Protocol-Version header; this endpoint serves "
                + String.join(", ", served) + " (and " + ModernEra.VERSION + " with the version in each request's _meta)");
    }

    /** A header the request must name once given twice ({@link SessionHeaders}); {@code name} is the endpoint's own. */
    static JsonRpcHttpError repeatedHeader(String name) {
        return invalidRequest(400, "Bad Request: the " + name + " header is given more than once; send it once");
    }

    static JsonRpcHttpError tooLarge(int maxBytes) {
        return invalidRequest(413, "Payload Too Large: the body exceeds " + maxBytes + " bytes");
    }

    /** A body within the byte bound that holds more JSON than a message of MCP to fleet ever does. */
    static final JsonRpcHttpError TOO_MANY_TOKENS = invalidRequest(413, "Payload Too Large: more than "
            + JsonRpcReader.MAX_TOKENS + " JSON tokens in one message");

    /** The 403 of a request {@code rule} refused: another site's page, or a foreign Origin or Host. */
    static JsonRpcHttpError forbidden(OriginRule rule, Function<String, Enumeration<String>> headers) {
        return rule.refusesAnotherSitesPage(headers) ? FORBIDDEN_SITE : FORBIDDEN_ORIGIN;
    }

    /** The client's request cannot be served as sent (JSON-RPC's "Invalid Request"). */
    private static JsonRpcHttpError invalidRequest(int status, String message) {
        return new JsonRpcHttpError(status, INVALID_REQUEST, message);
    }

    /**
     * The container's own error answers (a malformed request line, headers too large, anything that
     * escapes the servlet) as JSON-RPC errors by status; another method than the endpoint's three is 405
     * ({@code OPTIONS *}). A 404 of its own is a path it does not serve, never a session: only the SDK's
     * 404, which the guard translates, is that.
     */
    static BodyByStatusErrorHandler errorHandler() {
        return new BodyByStatusErrorHandler("application/json",
                status -> (status == 404 ? NOT_FOUND : forStatus(status)).body(null), METHODS);
    }

    /** What an HTTP status means when something else (the SDK, the container) chose it. */
    static JsonRpcHttpError forStatus(int status) {
        return switch (status) {
            case 400 -> invalidRequest(400, "Bad Request");
            case 403 -> FORBIDDEN_ORIGIN;
            case 404 -> UNKNOWN_SESSION;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> invalidRequest(413, "Payload Too Large");
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 431 -> invalidRequest(431, "Request Header Fields Too Large");
            case 503 -> new JsonRpcHttpError(503, INTERNAL_ERROR, "Service Unavailable: the server is shutting down");
            // The client's HTTP version (HTTP/0.9, HTTP/9.9), which Jetty refuses: the client's mistake, not ours.
            case 505 -> invalidRequest(505, "HTTP Version Not Supported: send HTTP/1.1");
            // HTTP's own words for the status (414 URI Too Long, 417 Expectation Failed): "Bad Request" told a client
            // whose URI or Expect header was refused that its request was malformed.
            default -> status >= 500 ? new JsonRpcHttpError(status, INTERNAL_ERROR, "Internal error")
                    : invalidRequest(status, HttpStatus.getMessage(status));
        };
    }

    /** The JSON-RPC error answer ({@link JsonRpcError}), for the request's id, null when unknown. */
    byte[] body(JsonRpcId id) {
        return new JsonRpcError(code, message).bytes(id == null ? JsonRpcId.NONE : id);
    }

    /** Writes this error as the whole response, replacing anything not yet committed. */
    void write(HttpServletResponse response, JsonRpcId id) throws IOException {
        write(response, id, false);
    }

    /**
     * Writes this error for a request whose body was left unread, and says the connection closes after it:
     * the container closes it anyway (the unread body cannot be skipped safely), and a client told so never
     * sends its next request on a connection that is about to close (it did, rarely, under load).
     */
    void writeClosing(HttpServletResponse response) throws IOException {
        write(response, null, true);
    }

    private void write(HttpServletResponse response, JsonRpcId id, boolean closing) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.reset();
        if (closing) {
            response.setHeader("Connection", "close");
        }
        byte[] body = body(id);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(body.length);
        if (status == 405) {
            response.setHeader("Allow", this == METRICS_METHOD_NOT_ALLOWED ? "GET, HEAD" : String.join(", ", METHODS));
        }
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
