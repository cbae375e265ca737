package dev.fleet.domain.port.in;

import dev.fleet.domain.lifecycle.RegistrationState;
import java.time.Duration;

/**
 * A fleet server's own row in the registry, from registration to stop: register once the
 * transport is bound, heartbeat (and register again when the row is gone), mark it stopped on the
 * way out. What the transport that serves drives; {@link OwnRegistrationUseCase} is what its tools
 * read. The only use of the registry's write port. Registry failures never end the server.
 */
public interface ServerLifecycleUseCase {

    /**
     * The longest {@link #stop()} takes, waiting for a registry write in progress and writing
     * together. The contract wants the process gone within 2 s; after the stop come the MCP
     * session's close (at most 300 ms) and the JVM's exit, which waits up to 300 ms more for threads
     * still in native code (a registry write sleeping in SQLite's busy handler is one). An
     * unhindered stop write takes milliseconds.
     */
    Duration STOP_DEADLINE = Duration.ofMillis(750);

    /** Registers, then heartbeats every {@code heartbeatPeriod}. Call once the transport is bound. Never throws. */
    RegistrationState start(Duration heartbeatPeriod);

    /**
     * {@link #start(Duration)} for a server that listens on {@code endpoint} (an HTTP server, once bound:
     * the port is only known then), which its row and its runtime context record.
     */
    RegistrationState start(Duration heartbeatPeriod, String endpoint);

    /**
     * Stops heartbeating and marks the row stopped, within {@link #STOP_DEADLINE} whatever the
     * registry does. Idempotent: only the first call writes; a concurrent second call (the shutdown
     * hook while an EOF stop is under way) waits for the first, within the same bound. Never throws.
     */
    void stop();
}
