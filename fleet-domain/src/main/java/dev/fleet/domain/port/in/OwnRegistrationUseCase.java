package dev.fleet.domain.port.in;

import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.lifecycle.ServerIdentity;
import java.time.Duration;

/**
 * What a server's tools read about the server itself: who it is and where its own registration
 * stands. {@link ServerLifecycleUseCase} is the side that writes it.
 */
public interface OwnRegistrationUseCase {

    /** How long a tool call waits for this server's first registration attempt (docs/CONTRACT.md). */
    Duration REGISTRATION_WAIT = Duration.ofSeconds(5);

    /** What this server says about itself, as its row records it now. */
    ServerIdentity identity();

    /** Where this server's registration stands now. */
    RegistrationState state();

    /**
     * Waits, at most {@code max}, for the first registration attempt to finish (registered or
     * failed) or the server to stop: a tool call that arrives right after {@code initialize} must
     * not see this server as a stray. Never throws.
     *
     * @return false when {@code max} passed first
     */
    boolean awaitRegistrationAttempt(Duration max);
}
