package dev.fleet.mcp.http;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;

/**
 * The headers a 2025-era request names its session and protocol version with, after {@code initialize}: the
 * one place that judges them, for a POST, a GET and a DELETE alike.
 *
 * <p>A header given twice is refused whatever its values say: the SDK reads the first alone, and a proxy
 * or cache in front may read the second (as the endpoint refuses two {@code Origin} or {@code Host} headers).
 * A second {@code MCP-Protocol-Version} was never read, so a request claiming both a served version and one
 * that is not was served; a request naming two sessions was served in the first, a DELETE ended it.
 *
 * @param versions the 2025-era versions the SDK's transport serves
 */
record SessionHeaders(List<String> versions) {

    static final String SESSION = "Mcp-Session-Id";
    static final String VERSION = "MCP-Protocol-Version";

    SessionHeaders {
        versions = List.copyOf(versions);
    }

    /**
     * Why a 2025-era request after {@code initialize} is refused by these headers: no session id (400), or a
     * version the transport does not serve (400; none means 2025-03-26, as the MCP specification says), or
     * either given twice (400). Null when they pass.
     */
    JsonRpcHttpError refusal(HttpServletRequest request) {
        List<String> sessions = Collections.list(request.getHeaders(SESSION));
        if (sessions.isEmpty() || sessions.get(0).isBlank()) {
            return JsonRpcHttpError.SESSION_REQUIRED;
        }
        if (sessions.size() > 1) {
            return JsonRpcHttpError.repeatedHeader(SESSION);
        }
        List<String> named = Collections.list(request.getHeaders(VERSION));
        if (named.size() > 1) {
            return JsonRpcHttpError.repeatedHeader(VERSION);
        }
        return named.isEmpty() || versions.contains(named.get(0)) ? null
                : JsonRpcHttpError.unsupportedVersion(versions);
    }
}
