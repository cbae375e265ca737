package dev.fleet.domain.verdict;

import java.time.Instant;

/** A server-looking process with neither a live nor an unverified registration on its pid. */
public record UnregisteredProcess(long pid, Instant startedAt, String commandLine, UnregisteredReason reason) {
}
