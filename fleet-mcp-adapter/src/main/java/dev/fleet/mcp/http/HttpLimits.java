package dev.fleet.mcp.http;

import static dev.fleet.http.ConnectionBounds.requirePositive;

import dev.fleet.http.ConnectionBounds;
import java.time.Duration;

/**
 * The bounds of the streamable HTTP endpoint (docs/CONTRACT.md, "HTTP limits"). Every one protects the
 * server from a client that would otherwise hold its resources forever.
 *
 * @param headerDeadline a connection that has not completed a request's headers within this time
 *     (while no request of it is in progress) is closed, between one and two deadlines after its last
 *     request: a client trickling a byte every few seconds never keeps a connection open; and so is one
 *     whose request body is not whole this long after its headers, and a second more for every 16 KiB
 *     it declares
 * @param maxConnections connections accepted at once; further ones wait in the kernel's backlog
 * @param sessionIdle an MCP session with no request and no open stream for this long is closed and
 *     forgotten (between one and two periods after its last use); its id then gets 404
 * @param maxBodyBytes the largest request body read; a larger one gets 413 without being read whole
 * @param connectionIdle a connection on which nothing moves for this long is closed
 * @param maxSessions MCP sessions held at once; an {@code initialize} beyond them is refused (503) until
 *     one is deleted or expires. 256 is far more than the agents of one repository open, and keeps the
 *     worst case small: each session holds at most {@link dev.fleet.mcp.RequestParams#MAX_INITIALIZE_PARAMS_BYTES} of
 *     the client's text
 */
record HttpLimits(Duration headerDeadline, int maxConnections, Duration sessionIdle, int maxBodyBytes,
        Duration connectionIdle, int maxSessions) {

    /** The connections served at once by default: a compile-time constant, which naming loads no class. */
    static final int MAX_CONNECTIONS = 64;
    static final HttpLimits DEFAULT = new HttpLimits(Duration.ofSeconds(10), MAX_CONNECTIONS, Duration.ofMinutes(5),
            1 << 20, Duration.ofSeconds(60), 256);

    HttpLimits {
        requirePositive(headerDeadline, "headerDeadline");
        requirePositive(sessionIdle, "sessionIdle");
        requirePositive(connectionIdle, "connectionIdle");
        if (maxConnections <= 0 || maxBodyBytes <= 0 || maxSessions <= 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** The connection bounds every HTTP surface of fleet shares (fleet-http). */
    ConnectionBounds connectionBounds() {
        return new ConnectionBounds(headerDeadline, maxConnections, connectionIdle);
    }
}
