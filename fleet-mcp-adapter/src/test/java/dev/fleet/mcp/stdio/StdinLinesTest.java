package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StdinLinesTest {

    private final AtomicInteger ends = new AtomicInteger();
    /** What the gate saw: each line as text, or "TOO LONG" for a discarded one. */
    private final List<String> seen = new ArrayList<>();
    private final Gate gate = new Gate();

    /** Admits every non-blank line unchanged (with a newline), and records everything it is shown. */
    private final class Gate implements StdinLines.Gate {
        Runnable onTooLong = () -> { };

        @Override
        public byte[] admit(byte[] buffer, int length) {
            String line = new String(buffer, 0, length, StandardCharsets.UTF_8);
            seen.add(line);
            return line.isBlank() ? null : (line + "\n").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void tooLong(int limit) {
            seen.add("TOO LONG");
            onTooLong.run();
        }
    }

    private StdinLines over(String input, int limit) {
        return new StdinLines(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), gate,
                ends::incrementAndGet, limit);
    }

    @Test
    void passesAdmittedLinesThroughAndEndsOnce() throws IOException {
        StdinLines stdin = over("\n{\"a\":1}\r\n  \t\n\n{\"é\":2}", 100);

        assertEquals("{\"a\":1}\n{\"é\":2}\n", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(List.of("", "{\"a\":1}", "  \t", "", "{\"é\":2}"), seen,
                "CRLF is a line end; a last line without a newline still counts");
        assertEquals(1, ends.get(), "the end is signalled once");
        assertEquals(-1, stdin.read());
        assertEquals(1, ends.get());
    }

    @Test
    void aReadNeverWaitsForMoreThanTheLineAtHand() throws IOException {
        StdinLines stdin = over("{\"id\":1}\n{\"id\":2}\n", 100);
        byte[] buffer = new byte[100];

        assertEquals("{\"id\":1}\n", new String(buffer, 0, stdin.read(buffer, 0, 100), StandardCharsets.UTF_8));
        assertEquals(0, ends.get());
        assertEquals(List.of("{\"id\":1}"), seen, "the second line is not even read yet");
    }

    @Test
    void aLineOfExactlyTheLimitPassesAndOneByteMoreIsDiscardedAndReportedOnce() throws IOException {
        String fits = "a".repeat(10);
        String tooLong = "b".repeat(11);
        StdinLines stdin = over(fits + "\n" + tooLong + "\n" + fits + "\r\n" + "c".repeat(1000) + "\nafter\n", 10);

        assertEquals(fits + "\n" + fits + "\nafter\n", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(List.of(fits, "TOO LONG", fits, "TOO LONG", "after"), seen);
    }

    @Test
    void aLongLineIsReportedAsSoAsItCrossesTheLimitAndTheRestIsNeverHeld() throws IOException {
        // 5 MiB with no newline in sight, read in small pieces: the report comes long before its end.
        int limit = 1024;
        byte[] huge = new byte[5 * 1024 * 1024];
        Arrays.fill(huge, (byte) 'x');
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger deliveredWhenReported = new AtomicInteger(-1);
        gate.onTooLong = () -> deliveredWhenReported.set(delivered.get());
        InputStream trickle = new InputStream() {
            private final ByteArrayInputStream bytes = new ByteArrayInputStream(concat(huge, "\nnext\n"));

            @Override
            public int read() {
                return bytes.read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                int count = bytes.read(buffer, offset, Math.min(length, 4096));
                if (count > 0) {
                    delivered.addAndGet(count);
                }
                return count;
            }
        };
        StdinLines stdin = new StdinLines(trickle, gate, ends::incrementAndGet, limit);

        assertEquals("next\n", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(List.of("TOO LONG", "next"), seen);
        assertTrue(deliveredWhenReported.get() > limit && deliveredWhenReported.get() <= limit + 4096,
                "reported with the read that crossed the limit, after " + deliveredWhenReported + " bytes");
    }

    @Test
    void endOfInputInsideADiscardedLineIsJustTheEnd() throws IOException {
        StdinLines stdin = over("ok\n" + "z".repeat(50), 10);

        assertEquals("ok\n", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(List.of("ok", "TOO LONG"), seen);
        assertEquals(1, ends.get());
    }

    @Test
    void aReadErrorIsTheEndTooWithoutAnException() throws IOException {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("stdin is gone");
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                throw new IOException("stdin is gone");
            }
        };
        StdinLines stdin = new StdinLines(broken, gate, ends::incrementAndGet);

        assertEquals(-1, stdin.read(), "the SDK sees EOF, not an exception it would log with a stack trace");
        assertEquals(1, ends.get());
    }

    private static byte[] concat(byte[] first, String second) {
        byte[] tail = second.getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(first, first.length + tail.length);
        System.arraycopy(tail, 0, all, first.length, tail.length);
        return all;
    }
}
