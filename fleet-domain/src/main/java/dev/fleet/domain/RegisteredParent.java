package dev.fleet.domain;

import java.time.Instant;

/**
 * The process that started a registered server, its client, as a row holds it: the orphan rule asks
 * whether it still lives. Each null when unknown (what a starting server reads of its parent is
 * {@code lifecycle.ParentProcess}).
 */
public record RegisteredParent(Long pid, Instant startedAt) {

    /** Neither known. */
    public static final RegisteredParent UNKNOWN = new RegisteredParent(null, null);
}
