package dev.fleet.mcp.relay;

import dev.fleet.domain.Uninterruptibly;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A wrapping member's registration, which a registry another tool holds locked may keep from its row for 30 s: run
 * on a thread of its own while the caller waits for the row or for the member's end, whichever comes first, so that
 * an end meanwhile (stdin's EOF, the client's death, a signal) is carried out within its bounds rather than after
 * the registration (the relay audit's find). The row, should it be written after all within the end's 0.75 s, is
 * marked stopped by the end; after that it reads as its process gone.
 */
final class RegisteredUnlessEnded {

    /** How often the caller, waiting for the row, looks whether the member has ended meanwhile. */
    private static final long LOOK_MILLIS = 20;

    private RegisteredUnlessEnded() {
    }

    /**
     * Runs {@code register}; true once it has written the row and the member has not ended, false when {@code ended}
     * came first. A failure to register, an error included, is thrown here, on the caller's thread, as when it
     * registered itself.
     */
    static boolean register(Runnable register, CountDownLatch ended) {
        CountDownLatch written = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread registering = new Thread(() -> {
            try {
                register.run();
            } catch (RuntimeException | Error e) {
                failed.set(e);
            } finally {
                written.countDown();
            }
        }, "fleet-relay-register");
        registering.setDaemon(true);
        registering.start();
        boolean done = Uninterruptibly.await(() -> {
            while (!written.await(LOOK_MILLIS, TimeUnit.MILLISECONDS)) {
                if (ended.getCount() == 0) {
                    return false;
                }
            }
            return true;
        });
        Throwable failure = failed.get();
        if (failure instanceof Error error) {
            throw error; // as it ended the registering thread before: the heap gone, a class that would not load
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
        return done && ended.getCount() > 0;
    }
}
