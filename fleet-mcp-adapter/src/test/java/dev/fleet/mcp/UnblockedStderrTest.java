package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A real pipe as stderr: read, never read, and closed. */
class UnblockedStderrTest {

    private static final Pattern NOTE = Pattern.compile("fleet: (\\d+) log lines dropped: .*");

    private final Pipe pipe = pipe();
    private final UnblockedStderr stderr = new UnblockedStderr(Channels.newOutputStream(pipe.sink()), "test-stderr");
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);

    /** Closing both ends also frees a writer thread still blocked on a pipe nobody read. */
    @AfterEach
    void closePipe() throws Exception {
        pipe.sink().close();
        pipe.source().close();
    }

    @Test
    void linesReachStderrWholeAndInOrder() throws Exception {
        CompletableFuture<List<String>> read = readAll();
        // Some 170 KB, less than the queue holds: however slowly this test reads, nothing is dropped.
        for (int i = 0; i < 1_500; i++) {
            err.println("line " + i + " " + "x".repeat(i % 200));
        }
        err.print("a last line without its newline");
        assertTrue(stderr.awaitWritten(patience().toMillis()));
        pipe.sink().close();

        List<String> lines = read.get(patience().toSeconds(), TimeUnit.SECONDS);
        assertEquals(1_501, lines.size());
        for (int i = 0; i < 1_500; i++) {
            assertEquals("line " + i + " " + "x".repeat(i % 200), lines.get(i));
        }
        assertEquals("a last line without its newline", lines.get(1_500));
    }

    /**
     * Nobody reads: logging goes on at once, the lines beyond the queue's room are dropped whole, and
     * once stderr is read again one line says how many, before the next line.
     */
    @Test
    void aStderrNobodyReadsHoldsNoLoggerUpAndTheDroppedLinesAreCounted() throws Exception {
        int written = 10_000; // some 600 KiB: the pipe's 64 KiB and the queue's 256 KiB, twice over
        CompletableFuture<Void> logging = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < written; i++) {
                err.println("warning " + i + ": " + "w".repeat(50));
            }
        });
        logging.get(patience().toSeconds(), TimeUnit.SECONDS); // never reaching here was the defect: the logger blocked

        CompletableFuture<List<String>> read = readAll();
        assertTrue(stderr.awaitWritten(patience().toMillis()), "the queue leaves once stderr is read");
        err.println("after the reader came back");
        assertTrue(stderr.awaitWritten(patience().toMillis()));
        pipe.sink().close();

        List<String> lines = read.get(patience().toSeconds(), TimeUnit.SECONDS);
        assertEquals("after the reader came back", lines.get(lines.size() - 1));
        assertTrue(NOTE.matcher(lines.get(lines.size() - 2)).matches(), "the drops are said before the next line");
        int kept = 0;
        long keptBytes = 0;
        long dropped = 0;
        int last = -1;
        for (String line : lines.subList(0, lines.size() - 1)) {
            Matcher note = NOTE.matcher(line);
            if (note.matches()) {
                dropped += Long.parseLong(note.group(1));
                continue;
            }
            Matcher warning = Pattern.compile("warning (\\d+): w{50}").matcher(line);
            assertTrue(warning.matches(), "a whole line: " + line);
            int number = Integer.parseInt(warning.group(1));
            assertTrue(number > last, "in order: " + number + " after " + last);
            last = number;
            kept++;
            keptBytes += line.length() + 1;
        }
        assertEquals(written, kept + dropped, "every line is either written or counted");
        // At least the queue's room, less the one line that did not fit: all that is kept where the writer never ran
        // while the lines came (a loaded host), the pipe's 64 KiB more where it did.
        assertTrue(keptBytes > UnblockedStderr.CAPACITY_BYTES - 70, "the queue held its room's worth: " + kept
                + " lines, " + keptBytes + " bytes");
    }

    /**
     * A line printed in pieces (a {@code print}, then the {@code println} that ends it: the stream flushes
     * after each) is queued or dropped whole, even while the queue is full: never a fragment.
     */
    @Test
    void aLinePrintedInPiecesIsKeptOrDroppedWholeWhileNobodyReads() throws Exception {
        int written = 10_000;
        for (int i = 0; i < written; i++) {
            err.print("warning " + i + ": ");
            err.println("w".repeat(50));
        }
        CompletableFuture<List<String>> read = readAll();
        assertTrue(stderr.awaitWritten(patience().toMillis()));
        pipe.sink().close();

        List<String> lines = read.get(patience().toSeconds(), TimeUnit.SECONDS);
        long dropped = 0;
        long kept = 0;
        for (String line : lines) {
            Matcher note = NOTE.matcher(line);
            if (note.matches()) {
                dropped += Long.parseLong(note.group(1));
            } else {
                assertTrue(line.matches("warning \\d+: w{50}"), "a whole line: " + line);
                kept++;
            }
        }
        assertEquals(written, kept + dropped, "each line written whole or counted");
    }

    /**
     * A write stderr refuses for now (a pipe the child made non-blocking, full for a moment: EAGAIN) costs
     * the lines of that write, counted, and nothing after it: the next lines are written.
     */
    @Test
    void aWriteRefusedForNowIsCountedAndTheNextLinesAreWritten() throws Exception {
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger(1);
        UnblockedStderr once = new UnblockedStderr(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                written.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws java.io.IOException {
                if (refusals.getAndDecrement() > 0) {
                    throw new java.io.IOException("Resource temporarily unavailable");
                }
                written.write(bytes, offset, length);
            }
        }, "test-stderr-refused");
        PrintStream out = new PrintStream(once, true, StandardCharsets.UTF_8);
        out.println("refused");
        assertTrue(once.awaitWritten(patience().toMillis()));
        out.println("written");
        assertTrue(once.awaitWritten(patience().toMillis()));

        List<String> lines = List.of(written.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(2, lines.size(), lines.toString());
        Matcher note = NOTE.matcher(lines.get(0));
        assertTrue(note.matches(), lines.toString());
        assertEquals("1", note.group(1));
        assertEquals("written", lines.get(1));
    }

    @Test
    void aLineLongerThanTheQueueKeepsWholeIsWrittenInPiecesNotLost() throws Exception {
        CompletableFuture<List<String>> read = readAll();
        String longLine = "y".repeat(UnblockedStderr.MAX_LINE_BYTES * 3 + 7);
        err.println(longLine);
        err.println("next");
        assertTrue(stderr.awaitWritten(patience().toMillis()));
        pipe.sink().close();

        assertEquals(List.of(longLine, "next"), read.get(patience().toSeconds(), TimeUnit.SECONDS));
    }

    /** The reader has gone for good (the client exited): logging goes on, and an exit waits for nothing. */
    @Test
    void aStderrWhoseReaderHasGoneCostsNothing() throws Exception {
        pipe.source().close();
        CompletableFuture<Void> logging = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 10_000; i++) {
                err.println("warning " + i);
            }
        });
        logging.get(patience().toSeconds(), TimeUnit.SECONDS);
        assertTrue(stderr.awaitWritten(patience().toMillis()), "nothing is left waiting for a reader that is gone");
        assertFalse(err.checkError(), "the logger never sees the failure");
    }

    @Test
    void anExitWaitsForAStderrNobodyReadsOnlyAsLongAsItIsTold() {
        for (int i = 0; i < 10_000; i++) {
            err.println("warning " + i + ": " + "w".repeat(50));
        }
        long start = System.nanoTime();
        assertFalse(stderr.awaitWritten(100), "what waits cannot have been written");
        assertTrue(System.nanoTime() - start < patience().toNanos());
    }

    private CompletableFuture<List<String>> readAll() {
        return CompletableFuture.supplyAsync(() -> {
            List<String> lines = new ArrayList<>();
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(Channels.newInputStream(pipe.source()), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return lines;
        });
    }

    private static Duration patience() {
        return Patience.scaled(Duration.ofSeconds(30));
    }

    private static Pipe pipe() {
        try {
            return Pipe.open();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
