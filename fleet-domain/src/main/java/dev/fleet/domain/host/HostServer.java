package dev.fleet.domain.host;

import java.util.List;

/**
 * One server process with its tree, as reported (the contract, §14).
 *
 * @param clientKind its client's kind label, null when the client is unknown or gone
 * @param clientPid its client's pid, null for an orphan
 * @param configFile the configuration file of its entry, null when no entry is known
 * @param name its entry's name, null when no entry is known
 * @param state what it is to its client
 * @param pids its tree: the root first, then its descendants by pid
 * @param rootPid the server process (for a leftover: the topmost surviving process)
 * @param startedTicks the root's start in clock ticks since boot
 * @param startedAt the root's start (ISO-8601, UTC, seconds), null when unknown
 * @param memoryBytes the tree's memory, the one value that changes on an unchanged host
 * @param stop the guarded POSIX shell line that stops the tree, null unless a stray
 */
public record HostServer(String clientKind, Long clientPid, String configFile, String name, ServerState state,
        List<Long> pids, long rootPid, long startedTicks, String startedAt, long memoryBytes, String stop) {

    public HostServer {
        pids = List.copyOf(pids);
    }
}
