package dev.fleet.mcp.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.modern.ModernEra;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A POST of the 2026-07-28 era ({@link ModernEra#claims}), which {@link JsonRpcHttpGuard} has found to be one
 * JSON-RPC request or notification: what the SDK's servlet of that era would answer badly is answered here,
 * the rest goes to that servlet, its answers kept valid UTF-8 ({@link SurrogateEscapingWriter}).
 *
 * <ul>
 *   <li>an id the SDK cannot take: 400, -32600 and {@code "id": null}, as stdio answers it (the servlet's answer
 *       had no id member at all);
 *   <li>a body beyond the SDK's own reading bounds (a key longer than 50,000 characters, Jackson's default):
 *       400, -32700 under the request's id, as the 2025 era answers it (the servlet's answer had no id);
 *   <li>a notification's headers, where it gives them, must say what its body says: {@code Mcp-Method} once and
 *       naming its method, {@code MCP-Protocol-Version} once and naming {@code _meta}'s version (400, -32020); and
 *       that version must be one served (400, -32022). A header it leaves out is no fault: the TypeScript SDK 2.4
 *       sets {@code Mcp-Method} on requests only, and its server exempts notification POSTs; but one that
 *       contradicts the body would route one way in a proxy and another here. The servlet checked none of this
 *       on a notification, and accepted any with 202.
 * </ul>
 */
final class ModernPost {

    /** What the revision calls HeaderMismatch: a required header missing, or not saying what the body says. */
    static final int HEADER_MISMATCH = -32020;
    /** What the revision calls UnsupportedProtocolVersion. */
    static final int UNSUPPORTED_VERSION = -32022;
    private static final String METHOD_HEADER = "Mcp-Method";
    private static final String VERSION_HEADER = "MCP-Protocol-Version";
    /** The bounds the SDK's mapper reads a body with: Jackson's defaults. */
    private static final JsonFactory SDK_BOUNDS = new JsonFactory();

    private final HttpServlet servlet;

    /** @param servlet the SDK's servlet of the 2026-07-28 era */
    ModernPost(HttpServlet servlet) {
        this.servlet = Objects.requireNonNull(servlet, "servlet");
    }

    /** Answers {@code message}, the body of {@code request}, or has the SDK's servlet answer it. */
    void serve(CachedBodyRequest request, JsonRpcMessage message, HttpServletResponse response)
            throws IOException, ServletException {
        if (!(message instanceof Notification || message instanceof Request asked && asked.id().fitsTheSdk())) {
            JsonRpcHttpError.NOT_A_REQUEST.write(response, null);
            return;
        }
        JsonRpcId id = message.id(); // null for a notification, which no answer names
        if (!withinTheSdksBounds(request.body())) {
            JsonRpcHttpError.PARSE.write(response, id);
            return;
        }
        if (message instanceof Notification) {
            JsonRpcHttpError refused = headerRefusal(request, message);
            if (refused != null) {
                refused.write(response, null);
                return;
            }
        }
        // No session in this era: the servlet checks a request's headers against its body and answers in
        // JSON-RPC itself (its bare sendError statuses reach the context's JSON error handler).
        servlet.service(request, SurrogateEscapingWriter.escaping(response));
    }

    /** Why a notification's headers are refused (given, and not what its body says); null when they pass. */
    private static JsonRpcHttpError headerRefusal(HttpServletRequest request, JsonRpcMessage notification) {
        String mismatch = mismatch(request, METHOD_HEADER, notification.method(), "request method");
        String version = notification.parts().params() == null ? null
                : notification.parts().params().protocolVersion();
        if (mismatch == null && version != null) {
            mismatch = mismatch(request, VERSION_HEADER, version, "_meta protocol version");
        }
        if (mismatch != null) {
            return new JsonRpcHttpError(400, HEADER_MISMATCH, mismatch);
        }
        // The version is not echoed: it is any text a client chose.
        return version == null || ModernEra.VERSION.equals(version) ? null : new JsonRpcHttpError(400,
                UNSUPPORTED_VERSION, "Unsupported protocol version: this endpoint serves " + ModernEra.VERSION
                        + " in _meta (and 2025-era versions after initialize)");
    }

    /** The SDK servlet's words for a header given twice or not {@code expected}; null when it is that, or absent. */
    private static String mismatch(HttpServletRequest request, String header, String expected, String what) {
        List<String> values = Collections.list(request.getHeaders(header));
        if (values.isEmpty()) {
            return null; // a notification need not give it (above)
        }
        if (values.size() > 1) {
            return header + " header has more than one value";
        }
        return values.get(0).equals(expected) ? null : header + " header does not match " + what;
    }

    /**
     * Whether the SDK's mapper reads {@code body} (it answers one it cannot with no id member). Only a key longer
     * than Jackson's default bound is beyond it (the guard's reader has checked numbers and nesting), so a body no
     * longer than that bound is never read a second time.
     */
    private static boolean withinTheSdksBounds(byte[] body) {
        if (body.length <= StreamReadConstraints.DEFAULT_MAX_NAME_LEN) {
            return true;
        }
        // As text, as the SDK reads it: its bound counts a key's characters, where a parser of bytes counts bytes.
        try (JsonParser parser = SDK_BOUNDS.createParser(new String(body, StandardCharsets.UTF_8))) {
            while (parser.nextToken() != null) {
                // every token read, each key's length checked as the SDK's reading checks it
            }
            return true;
        } catch (IOException | RuntimeException beyond) {
            return false;
        }
    }
}
