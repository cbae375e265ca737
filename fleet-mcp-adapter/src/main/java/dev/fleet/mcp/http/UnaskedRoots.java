package dev.fleet.mcp.http;

import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * {@code notifications/roots/list_changed} in a 2025-era session: accepted (202) and not passed to the SDK, so
 * the server never asks a client for its roots. The SDK answers that notification by asking the client for its
 * roots over the session's GET stream; without one open (a stream is the client's choice) the request fails, the
 * SDK logs an ERROR and the notification got 500. Fleet acts on no roots, and over stdio the same notification is
 * dropped unread, so asking is never worth a failure.
 */
final class UnaskedRoots {

    static final String METHOD = "notifications/roots/list_changed";

    private UnaskedRoots() {
    }

    /**
     * Whether {@code message} is that notification, then answered: accepted when the SDK holds its session
     * ({@code held}), else 404, as any other message of an unknown or expired session gets.
     */
    static boolean accepted(JsonRpcMessage message, BooleanSupplier held, HttpServletResponse response)
            throws IOException {
        if (!(message instanceof Notification && METHOD.equals(message.method()))) {
            return false;
        }
        if (held.getAsBoolean()) {
            response.setStatus(HttpServletResponse.SC_ACCEPTED);
            response.setContentLength(0);
        } else {
            JsonRpcHttpError.UNKNOWN_SESSION.write(response, null);
        }
        return true;
    }
}
