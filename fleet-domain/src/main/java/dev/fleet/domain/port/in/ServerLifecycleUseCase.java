package dev.fleet.domain.port.in;

import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServerIdentity;
import java.time.Duration;

/**
 * A fleet server's own row in the registry, from registration to stop: register once the
 * transport is bound, heartbeat, register again when the row is gone, mark it stopped on the way
 * out. The only use of the registry's write port. Registry failures never end the server.
 */
public interface ServerLifecycleUseCase {

    /** Registers, then heartbeats every {@code heartbeatPeriod}. Call once the transport is bound. Never throws. */
    RegistrationState start(Duration heartbeatPeriod);

    /**
     * {@link #start(Duration)} for a server that listens on {@code endpoint} (an HTTP server, once bound:
     * the port is only known then), which its row and its runtime context record.
     */
    RegistrationState start(Duration heartbeatPeriod, String endpoint);

    /** One heartbeat tick (the scheduler calls it). Never throws. */
    RegistrationState heartbeat();

    /** Marks the row stopped within a bounded time, whatever the registry does. Idempotent. Never throws. */
    void stop();

    /**
     * Waits, at most {@code max}, for the first registration attempt to finish (or the server to stop):
     * a tool call that arrives first must not see this server as a stray.
     *
     * @return false when {@code max} passed first
     */
    boolean awaitRegistrationAttempt(Duration max);

    RegistrationState state();

    ServerIdentity identity();

    boolean isStopped();
}
