package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plain stdio server whose registration waits for a registry another tool holds locked (it retries for
 * up to 30 s): the contract's 2 s from stdin EOF to its exit hold all the same. Before, the registration
 * ran on the main thread, which saw the EOF only once the lock was let go.
 */
class RegisteringUnderALockIT {

    /** The contract's bound from EOF to the exit, plus a JVM's own exit. */
    private static final Duration AFTER_EOF = Duration.ofSeconds(2 + 2);

    @TempDir
    Path dir;

    @Test
    void aServerWhoseRegistrationWaitsForALockStillExitsWithinTwoSecondsOfEof() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (LockedRegistry lock = LockedRegistry.lock(registry);
                ServeProcess server = ServeProcess.start(registry, "prgs-author", Map.of())) {
            LockedRegistry.awaitRegistering(server.pid(), registry);
            server.closeStdinAt();
            assertTrue(server.exitsWithin(Patience.scaled(AFTER_EOF).toMillis()),
                    "the server to exit while the registry is still locked; " + server.diagnosis(20));
            assertEquals(0, server.process().exitValue(), server.diagnosis(20));
        }
    }
}
