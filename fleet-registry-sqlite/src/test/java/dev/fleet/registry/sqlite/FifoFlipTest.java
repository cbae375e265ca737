package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry path flipped between a FIFO and a file while assessments read it: the look at the
 * path and the driver's open can see different things, and an open of a FIFO blocks in the kernel.
 * Every read must still answer within its bound.
 */
class FifoFlipTest {

    /** The read bound, plus generous room for a starved host to schedule the answer. */
    private static final Duration BOUND = ReadBounds.READ_TIME.plusSeconds(20);

    private static final int READS = 40;

    @TempDir
    Path dir;

    @Test
    void noReadBlocksPastItsBoundWhileThePathFlipsBetweenAFifoAndAFile() throws Exception {
        Path registry = ScratchRegistry.migratedIn(dir);
        Path file = dir.resolve("spare.sqlite3");
        Path fifo = dir.resolve("spare.fifo");
        Files.move(registry, file);
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        Assumptions.assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo unavailable");

        AtomicBoolean flipping = new AtomicBoolean(true);
        Thread flipper = new Thread(() -> {
            while (flipping.get()) {
                flip(fifo, registry);
                flip(file, registry);
            }
        }, "flipper");
        flipper.setDaemon(true);
        flipper.start();
        int answered = 0;
        // One reader, as a long-running server has: however often its open blocks, it keeps at most
        // one thread stuck in the kernel.
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        try {
            for (int i = 0; i < READS; i++) {
                RegistryRead read = assertTimeoutPreemptively(BOUND, reader::readAll, "read " + i + " blocked");
                assertTrue(read.readable() || ((RegistryRead.Unreadable) read).reason() != null);
                answered++;
            }
            // Blocked in the kernel shows as RUNNABLE; a reading thread kept idle for the next read waits.
            long stuck = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().equals("fleet-registry-read")
                            && thread.getState() == Thread.State.RUNNABLE).count();
            assertTrue(stuck <= 1, stuck + " read threads still blocked");
        } finally {
            flipping.set(false);
            flipper.join(10_000);
            releaseBlockedOpens(fifo, registry);
        }
        assertTrue(answered == READS);
    }

    /** Puts {@code spare} at the path for a moment, then back. */
    private static void flip(Path spare, Path registry) {
        try {
            Files.move(spare, registry, StandardCopyOption.ATOMIC_MOVE);
            // Held a moment, at random: the reader's look and its open must fall on different sides.
            java.util.concurrent.locks.LockSupport.parkNanos(
                    java.util.concurrent.ThreadLocalRandom.current().nextLong(2_000_000));
            Files.move(registry, spare, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // a rename raced with nothing else here; try again
        }
    }

    /** A reader stuck opening the FIFO (on a daemon thread) is let go: on Linux a read-write open never blocks. */
    private static void releaseBlockedOpens(Path... candidates) {
        for (Path candidate : candidates) {
            if (Files.exists(candidate) && !Files.isRegularFile(candidate)) {
                try (FileChannel ignored = FileChannel.open(candidate, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    // opened and closed: the blocked reader sees end of file
                } catch (IOException e) {
                    // nothing more to do
                }
            }
        }
    }
}
