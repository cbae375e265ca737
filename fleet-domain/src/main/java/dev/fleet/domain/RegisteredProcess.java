package dev.fleet.domain;

import java.time.Instant;

/**
 * The process a registration names, and what makes its pid mean that one process: the pid namespace
 * it was read in (Linux: {@code pid:[4026531836]}), the boot, its start and the registering host's
 * {@link HostId} (a row of another host is judged by its lease). Each but the pid is null when unknown.
 */
public record RegisteredProcess(long pid, String pidNamespace, String bootId, Instant startedAt, String hostId) {
}
