package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one line reader of stdio: whole lines, bounded, and the end. */
class BoundedLinesTest {

    /** What the sink saw: each line as text, or "TOO LONG" for a discarded one. */
    private final List<String> seen = new ArrayList<>();
    private Runnable onTooLong = () -> { };

    private final BoundedLines.Sink sink = new BoundedLines.Sink() {
        @Override
        public void line(byte[] buffer, int length) {
            seen.add(new String(buffer, 0, length, StandardCharsets.UTF_8));
        }

        @Override
        public void tooLong(int limit) {
            seen.add("TOO LONG");
            onTooLong.run();
        }
    };

    private static BoundedLines over(String input, int limit) {
        return new BoundedLines(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), "stdin", limit);
    }

    @Test
    void everyLineGoesToTheSinkAndThenTheEndIsTheEnd() {
        BoundedLines lines = over("\n{\"a\":1}\r\n  \t\n\n{\"é\":2}", 100);

        lines.forEach(sink);

        assertEquals(List.of("", "{\"a\":1}", "  \t", "", "{\"é\":2}"), seen,
                "CRLF is a line end; a last line without a newline still counts");
        assertFalse(lines.next(sink), "the end stays the end");
        assertEquals(5, seen.size());
    }

    @Test
    void aReadNeverWaitsForMoreThanTheLineAtHand() {
        BoundedLines lines = over("{\"id\":1}\n{\"id\":2}\n", 100);

        assertTrue(lines.next(sink));

        assertEquals(List.of("{\"id\":1}"), seen, "the second line is not handed over yet");
    }

    @Test
    void aLineOfExactlyTheLimitPassesAndOneByteMoreIsDiscardedAndReportedOnce() {
        String fits = "a".repeat(10);
        String tooLong = "b".repeat(11);

        over(fits + "\n" + tooLong + "\n" + fits + "\r\n" + "c".repeat(1000) + "\nafter\n", 10).forEach(sink);

        assertEquals(List.of(fits, "TOO LONG", fits, "TOO LONG", "after"), seen);
    }

    @Test
    void aLongLineIsReportedAsSoonAsItCrossesTheLimitAndTheRestIsNeverHeld() {
        // 5 MiB with no newline in sight, read in small pieces: the report comes long before its end.
        int limit = 1024;
        byte[] huge = new byte[5 * 1024 * 1024];
        Arrays.fill(huge, (byte) 'x');
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger deliveredWhenReported = new AtomicInteger(-1);
        onTooLong = () -> deliveredWhenReported.set(delivered.get());
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

        new BoundedLines(trickle, "stdin", limit).forEach(sink);

        assertEquals(List.of("TOO LONG", "next"), seen);
        assertTrue(deliveredWhenReported.get() > limit && deliveredWhenReported.get() <= limit + 4096,
                "reported with the read that crossed the limit, after " + deliveredWhenReported + " bytes");
    }

    /**
     * A burst of short lines whose reads each end inside a line (a peer's writes split where they will):
     * every read still asks for the chunk's whole room behind the line begun, never for a line buffer's
     * few KiB, so a relay passes the burst on in as few writes as it was read in (issue 52).
     */
    @Test
    void aLineBegunAtTheEndOfAReadIsReadOnBehindItInTheWholeChunk() {
        StringBuilder burst = new StringBuilder();
        for (int i = 0; burst.length() < 300_000; i++) {
            burst.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"tools/call\"}\n");
        }
        byte[] bytes = burst.toString().getBytes(StandardCharsets.UTF_8);
        List<Integer> asked = new ArrayList<>();
        InputStream splitting = new InputStream() {
            private int position;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                asked.add(length);
                if (position == bytes.length) {
                    return -1;
                }
                int count = Math.min(Math.min(length, 10_007), bytes.length - position); // ends inside a line
                System.arraycopy(bytes, position, buffer, offset, count);
                position += count;
                return count;
            }
        };

        new BoundedLines(splitting, "stdin", 1000).forEach(sink);

        assertEquals(burst.toString().split("\n").length, seen.size());
        assertTrue(asked.stream().allMatch(length -> length >= 64 * 1024 - 1000),
                "every read asks for the chunk's room behind the line begun: " + asked);
    }

    @Test
    void endOfInputInsideADiscardedLineIsJustTheEnd() {
        over("ok\n" + "z".repeat(50), 10).forEach(sink);

        assertEquals(List.of("ok", "TOO LONG"), seen);
    }

    @Test
    void aReadErrorIsTheEndTooWithoutAnException() {
        assertFalse(new BoundedLines(TextReadingCount.gone(), "stdin", 100).next(sink));
        assertEquals(List.of(), seen);
    }

    /**
     * Whatever the lines (short, longer than one read, around the limit, CRLF or not, the last without
     * a newline) and however the stream splits them into reads: the lines handed over are exactly the
     * input split on newlines, one trailing CR dropped, and each one over the limit reported instead.
     */
    @Test
    void everySplitOfTheStreamGivesTheSameLines() {
        int[] limits = {1, 7, 100, 70_000, 200_000};
        qt().withExamples(200).forAll(longs().all(), integers().between(0, limits.length - 1))
                .checkAssert((seed, limitIndex) -> {
                    Random random = new Random(seed);
                    int limit = limits[limitIndex];
                    ByteArrayOutputStream input = new ByteArrayOutputStream();
                    List<String> expected = new ArrayList<>();
                    int lines = random.nextInt(12);
                    for (int i = 0; i < lines; i++) {
                        byte[] content = content(random, limit);
                        boolean last = i == lines - 1 && random.nextBoolean();
                        input.writeBytes(content);
                        if (!last) {
                            input.write('\n');
                        }
                        if (!last || content.length > 0) {
                            int length = content.length > 0 && content[content.length - 1] == '\r'
                                    ? content.length - 1 : content.length;
                            expected.add(length > limit ? "TOO LONG"
                                    : new String(content, 0, length, StandardCharsets.ISO_8859_1));
                        }
                    }
                    List<String> got = new ArrayList<>();
                    new BoundedLines(pieces(input.toByteArray(), random), "stdin", limit).forEach(new BoundedLines.Sink() {
                        @Override
                        public void line(byte[] buffer, int length) {
                            got.add(new String(buffer, 0, length, StandardCharsets.ISO_8859_1));
                        }

                        @Override
                        public void tooLong(int limit) {
                            got.add("TOO LONG");
                        }
                    });
                    assertEquals(expected, got, "seed " + seed + ", limit " + limit);
                });
    }

    /** A line's bytes, no newline among them: empty, short, about the limit or about a read (64 KiB), or longer. */
    private static byte[] content(Random random, int limit) {
        int length = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextInt(20);
            case 2 -> Math.max(0, limit - 2 + random.nextInt(5));
            case 3 -> 64 * 1024 - 4 + random.nextInt(9);
            default -> random.nextInt(3 * 64 * 1024);
        };
        byte[] content = new byte[length];
        for (int i = 0; i < length; i++) {
            content[i] = (byte) "ab\r{}é\t\0".charAt(random.nextInt(8));
        }
        if (length > 0 && random.nextInt(3) == 0) {
            content[length - 1] = '\r';
        }
        return content;
    }

    /** {@code bytes} in reads of random sizes, from one byte to more than a chunk. */
    private static InputStream pieces(byte[] bytes, Random random) {
        int largest = 1 + random.nextInt(random.nextBoolean() ? 16 : 100_000);
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, 1 + random.nextInt(largest)));
            }
        };
    }

    private static byte[] concat(byte[] first, String second) {
        byte[] tail = second.getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(first, first.length + tail.length);
        System.arraycopy(tail, 0, all, first.length, tail.length);
        return all;
    }
}
