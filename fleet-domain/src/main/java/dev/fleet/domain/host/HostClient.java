package dev.fleet.domain.host;

/**
 * A live client of configured servers (the contract, §14): the nearest live ancestor of a server
 * outside every server tree.
 *
 * @param kind its kind's label where its argv says which ({@link ClientKind#label()}), else null
 * @param pid its pid
 * @param startedTicks its start in clock ticks since boot: with the pid, the client's identity
 * @param startedAt its start (ISO-8601, UTC, seconds), null when unknown
 * @param command its command line, masked
 * @param project the project directory its servers were configured for, null when none is known
 */
public record HostClient(String kind, long pid, long startedTicks, String startedAt, String command,
        String project) {
}
