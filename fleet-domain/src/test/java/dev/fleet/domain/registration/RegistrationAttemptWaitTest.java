package dev.fleet.domain.registration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.lifecycle.RegistrationState;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Tool calls that arrive while the server registers wait for the first registration attempt, and no
 * longer: an attempt that failed ends the wait, and so does a stop, as no attempt will come.
 */
class RegistrationAttemptWaitTest extends ServerLifecycleFixture {

    @Test
    void toolCallsWaitForTheFirstRegistrationAttemptAndNoLonger() throws Exception {
        ServerLifecycleService lifecycle = lifecycleOn(blocking, HANG);
        assertFalse(lifecycle.awaitRegistrationAttempt(Duration.ofMillis(50)), "no attempt yet: the wait times out");
        Thread start = blocking.registrations.enteredBy(() -> lifecycle.start(PERIOD));
        AtomicReference<RegistrationState> seen = new AtomicReference<>();
        Thread call = new Thread(() -> {
            lifecycle.awaitRegistrationAttempt(HANG);
            seen.set(lifecycle.state());
        });
        call.start();
        awaitParked(call);
        assertTrue(call.isAlive() && seen.get() == null, "still waiting while the registration is under way");

        blocking.release();
        call.join(HANG.toMillis());
        start.join(HANG.toMillis());

        assertEquals("registered", seen.get().status());
        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO), "later calls do not wait");
    }

    @Test
    void aFailedFirstAttemptAlsoEndsTheWait() {
        registry.failRegistrationsWith(new IllegalStateException("disk full"));
        lifecycle.start(PERIOD);

        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO));
        assertEquals("failed", lifecycle.state().status());
    }

    @Test
    void aStopReleasesCallsWaitingForARegistrationThatWillNotCome() {
        lifecycle.stop();

        assertTrue(lifecycle.awaitRegistrationAttempt(Duration.ZERO));
    }
}
