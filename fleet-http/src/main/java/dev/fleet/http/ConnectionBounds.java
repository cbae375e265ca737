package dev.fleet.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How long and how many connections an HTTP surface holds, so no client holds its resources forever
 * (docs/CONTRACT.md, "HTTP limits").
 *
 * @param headerDeadline a connection that has not completed a request's headers within this time
 *     (while no request of it is in progress) is closed, between one and two deadlines after its last
 *     request: a client trickling a byte every few seconds never keeps a connection open
 * @param maxConnections connections accepted at once; further ones wait in the kernel's backlog
 * @param connectionIdle a connection on which nothing moves for this long is closed
 */
public record ConnectionBounds(Duration headerDeadline, int maxConnections, Duration connectionIdle) {

    public ConnectionBounds {
        requirePositive(headerDeadline, "headerDeadline");
        requirePositive(connectionIdle, "connectionIdle");
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
    }

    /** @throws IllegalArgumentException unless {@code duration} is positive */
    public static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + duration);
        }
    }
}
