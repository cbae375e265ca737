package dev.fleet.domain;

import java.time.Instant;

/**
 * A process the answering process saw itself. {@code startedAt} is null when the OS would not
 * say; {@code matchesServer} is whether a server process pattern is found in its command line.
 */
public record ObservedProcess(long pid, Instant startedAt, String commandLine, String user, boolean matchesServer) {
}
