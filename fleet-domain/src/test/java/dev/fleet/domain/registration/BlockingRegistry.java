package dev.fleet.domain.registration;

import static dev.fleet.domain.registration.ServerLifecycleFixture.HANG;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.port.out.RegistryWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The in-memory registry, with calls that can be made to block until released, as a registry
 * another process holds locked makes them wait out their busy timeouts.
 */
final class BlockingRegistry implements RegistryWriter {
    private final InMemoryRegistry delegate;
    private final CountDownLatch release = new CountDownLatch(1);
    final Gate heartbeats = new Gate();
    final Gate stops = new Gate();
    final Gate registrations = new Gate();

    BlockingRegistry(InMemoryRegistry delegate) {
        this.delegate = delegate;
    }

    void release() {
        release.countDown();
    }

    @Override
    public void migrate() {
        delegate.migrate();
    }

    @Override
    public Registration register(Registration registration, Optional<Duration> retention) {
        registrations.pass();
        return delegate.register(registration, retention);
    }

    @Override
    public boolean heartbeat(String runtimeId, Instant at) {
        heartbeats.pass();
        return delegate.heartbeat(runtimeId, at);
    }

    @Override
    public boolean markStopped(String runtimeId, Instant at) {
        stops.pass();
        return delegate.markStopped(runtimeId, at);
    }

    /** One kind of call: once blocked, a call says that it entered, then waits for the release. */
    final class Gate {
        private final CountDownLatch entered = new CountDownLatch(1);
        private volatile boolean blocked;

        void block() {
            blocked = true;
        }

        /** Blocks this kind of call, makes one in a new thread, and returns that thread once the call is inside. */
        Thread enteredBy(Runnable call) throws InterruptedException {
            blocked = true;
            Thread caller = new Thread(call);
            caller.start();
            assertTrue(entered.await(HANG.toMillis(), TimeUnit.MILLISECONDS));
            return caller;
        }

        private void pass() {
            if (blocked) {
                entered.countDown();
                awaitRelease();
            }
        }
    }

    private void awaitRelease() {
        try {
            release.await(HANG.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
