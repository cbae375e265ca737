package dev.fleet.domain;

import java.time.Instant;

/**
 * The server a {@code fleet serve -- COMMAND} member wraps: its argv with secrets masked, its pid and
 * its start, as a row holds them: each null when the member wraps nothing or it is unknown (a member's
 * own record of its child, checked and masked, is {@code lifecycle.ServedServer}). The processes it
 * serves are no strays.
 */
public record WrappedServer(String command, Long pid, Instant startedAt) {

    /** A member that wraps nothing. */
    public static final WrappedServer NONE = new WrappedServer(null, null, null);
}
