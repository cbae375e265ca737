package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client's lines while a wrapping member registers are read, kept in order as they were (the reader reuses its
 * buffer) and passed on only once the row is written; the bound on what is held makes reading wait, never drops.
 */
class HeldUntilRegisteredTest {

    private final List<String> passed = Collections.synchronizedList(new ArrayList<>());
    private final HeldUntilRegistered held = new HeldUntilRegistered(new BoundedLines.Sink() {
        @Override
        public void line(byte[] buffer, int length) {
            passed.add(new String(buffer, 0, length, StandardCharsets.UTF_8));
        }

        @Override
        public void tooLong(int limit) {
            passed.add("too long " + limit);
        }

        @Override
        public void drained() {
            passed.add("drained");
        }
    });

    private void read(byte[] buffer, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(bytes, 0, buffer, 0, bytes.length);
        held.line(buffer, bytes.length);
    }

    @Test
    void linesAreHeldInOrderUntilReleasedThenPassedAtOnce() {
        byte[] buffer = new byte[64];
        read(buffer, "{\"id\":1}");
        held.tooLong(16);
        read(buffer, "{\"id\":2}");
        held.drained();
        assertEquals(List.of(), passed, "nothing before the row is written");

        held.release();
        assertEquals(List.of("{\"id\":1}", "too long 16", "{\"id\":2}", "drained"), passed);
        read(buffer, "{\"id\":3}");
        held.drained();
        assertEquals(List.of("{\"id\":1}", "too long 16", "{\"id\":2}", "drained", "{\"id\":3}", "drained"), passed);
    }

    /** Stdin's end waits for held lines to go on (a one-shot client's requests), and for nothing when none are held. */
    @Test
    void stdinsEndWaitsForHeldLinesOnly() throws Exception {
        held.awaitHeldLinesPassed(); // nothing held: at once
        read(new byte[64], "{\"id\":1}");
        Thread end = new Thread(held::awaitHeldLinesPassed, "stdin's end");
        end.start();
        end.join(200);
        assertTrue(end.isAlive(), "a held request is still to go on");

        held.release();
        end.join(Patience.scaled(Duration.ofSeconds(10)).toMillis());
        assertTrue(!end.isAlive());
        assertEquals(List.of("{\"id\":1}", "drained"), passed);
    }

    /** Each entry counts with its cost: a flood of empty lines is bounded too, not only one of bytes. */
    @Test
    void aFloodOfEmptyLinesWaitsAtTheBound() throws Exception {
        long bound = HeldUntilRegistered.HELD_BYTES / HeldUntilRegistered.ENTRY_BYTES;
        java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
        Thread flood = new Thread(() -> {
            for (long i = 0; i < 2 * bound; i++) {
                held.line(new byte[0], 0);
                read.incrementAndGet();
            }
        }, "flood");
        flood.start();
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(20), () -> read.get() >= bound,
                "the flood to reach the bound");
        flood.join(200);
        assertTrue(flood.isAlive() && read.get() <= bound, read.get() + " empty lines held, bound " + bound);

        held.release();
        flood.join(Patience.scaled(Duration.ofSeconds(30)).toMillis());
        assertEquals(2 * bound + 1, passed.size(), "every line, and the release's flush");
    }

    @Test
    void beyondTheBoundReadingWaitsForTheReleaseAndLosesNothing() throws Exception {
        int half = (int) (HeldUntilRegistered.HELD_BYTES / 2) + 1;
        byte[] big = new byte[half];
        held.line(big, half);
        Thread reader = new Thread(() -> held.line(big, half), "reader");
        reader.start();
        reader.join(200);
        assertTrue(reader.isAlive(), "the second line waits: two of them are more than is held");
        assertEquals(List.of(), passed);

        held.release();
        reader.join(Patience.scaled(Duration.ofSeconds(10)).toMillis());
        assertEquals(3, passed.size(), "both lines, and the release's flush");
    }
}
