package dev.fleet.domain.port.out;

import dev.fleet.domain.Registration;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The registry as a server's own lifecycle writes it: only {@code fleet serve} uses this port,
 * and nothing on the assessment path can reach it.
 */
public interface RegistryWriter {

    /** The contract's default retention window: rows older than this on both timestamps may be dropped. */
    Duration DEFAULT_RETENTION = Duration.ofDays(7);

    /** Creates or upgrades the registry table, leaving every other table untouched. */
    void migrate();

    /**
     * Stores a server's registration and returns the stored row, migrating the registry first when it
     * is missing or out of date. A row with the same runtime id is updated; a row on the same pid is replaced
     * (the pid now names this server); rows on other pids are never removed, except rows older than
     * {@code retention} on both {@code registered_at} and {@code last_heartbeat_at}.
     *
     * @throws IllegalArgumentException when the registration lacks a runtime id, namespace or pid
     */
    Registration register(Registration registration, Optional<Duration> retention);

    /** Advances {@code last_heartbeat_at}; false when no row has this id (nothing is changed then). */
    boolean heartbeat(String runtimeId, Instant at);

    /** Marks the row stopped at {@code at}; false when no row has this id. */
    boolean markStopped(String runtimeId, Instant at);
}
