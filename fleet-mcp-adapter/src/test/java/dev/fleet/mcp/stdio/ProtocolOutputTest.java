package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ProtocolOutputTest {

    private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    private final ProtocolOutput out = new ProtocolOutput(sink);

    @Test
    void aReplyNeverLandsInsideALineTheSdkHasBegun() throws IOException {
        out.write("{\"from\":\"sdk\",".getBytes(StandardCharsets.UTF_8));
        out.flush();

        out.writeLine("{\"from\":\"gate\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"from\":\"gate\"}\n", text(), "the SDK's unfinished line is held back");

        out.write("\"id\":1}".getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
        assertEquals("{\"from\":\"gate\"}\n{\"from\":\"sdk\",\"id\":1}\n", text());
    }

    @Test
    void severalLinesInOneWriteAreAllPassedOn() throws IOException {
        out.write("a\nb\nc".getBytes(StandardCharsets.UTF_8));

        assertEquals("a\nb\n", text());
    }

    @Test
    void aReplyIsOneLine() {
        assertThrows(IllegalArgumentException.class, () -> out.writeLine("a\nb".getBytes(StandardCharsets.UTF_8)));
    }

    /** The SDK's writer and the gate at full speed on two threads: every line arrives whole. */
    @Test
    void twoWritersNeverInterleave() throws Exception {
        int lines = 2_000;
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sdk = new Thread(() -> {
            try {
                go.await();
                for (int i = 0; i < lines; i++) {
                    // As the SDK writes a message: body, newline, flush, in separate calls.
                    out.write(("{\"sdk\":" + i + ",\"pad\":\"" + "s".repeat(i % 97) + "\"}").getBytes(
                            StandardCharsets.UTF_8));
                    out.write("\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        Thread gate = new Thread(() -> {
            try {
                go.await();
                for (int i = 0; i < lines; i++) {
                    out.writeLine(("{\"gate\":" + i + "}").getBytes(StandardCharsets.UTF_8));
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        sdk.start();
        gate.start();
        go.countDown();
        sdk.join(TimeUnit.MINUTES.toMillis(2));
        gate.join(TimeUnit.MINUTES.toMillis(2));

        assertEquals(null, failure.get());
        List<String> sdkLines = new ArrayList<>();
        List<String> gateLines = new ArrayList<>();
        for (String line : text().split("\n")) {
            assertTrue(line.matches("\\{\"sdk\":\\d+,\"pad\":\"s*\"}|\\{\"gate\":\\d+}"), line);
            (line.startsWith("{\"sdk\"") ? sdkLines : gateLines).add(line);
        }
        assertEquals(lines, sdkLines.size());
        assertEquals(lines, gateLines.size());
    }

    @Test
    void aReservationWaitsWhileTheBoundOfUnwrittenAnswersIsReachedAndAnSdkLineFreesAPlace() throws Exception {
        ProtocolOutput bounded = new ProtocolOutput(sink, 2);
        bounded.reserveAnswer();
        bounded.reserveAnswer();
        CountDownLatch reserved = new CountDownLatch(1);
        Thread stdinThread = reserving(bounded, reserved);
        assertWaitsForAPlace(stdinThread, "two answers are unwritten: the bound is reached");

        bounded.writeLine("{\"from\":\"gate\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(1, reserved.getCount(), "still waiting");

        bounded.write("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(reserved.await(2, TimeUnit.MINUTES), "an answer written frees a place");
        assertWaitsForAPlace(reserving(bounded, new CountDownLatch(1)),
                "two answers are unwritten again: a reply of the gate's own answers nothing reserved");
    }

    /** A daemon thread, standing for the stdin thread, that reserves a place and then counts {@code reserved} down. */
    private static Thread reserving(ProtocolOutput output, CountDownLatch reserved) {
        Thread thread = new Thread(() -> {
            output.reserveAnswer();
            reserved.countDown();
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * {@code thread} waits inside {@link ProtocolOutput#reserveAnswer()} (the one timed wait it can be
     * in), rather than having taken a place and ended.
     */
    private static void assertWaitsForAPlace(Thread thread, String why) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (thread.getState() != Thread.State.TIMED_WAITING && thread.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(Thread.State.TIMED_WAITING, thread.getState(), why);
    }

    @Test
    void aFailedStdoutStopsTheBoundSoStdinIsReadOnToItsEnd() throws Exception {
        ProtocolOutput broken = new ProtocolOutput(new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        }, 1);
        broken.reserveAnswer();
        assertThrows(IOException.class, () -> broken.write("{\"id\":1}\n".getBytes(StandardCharsets.UTF_8)));

        broken.reserveAnswer(); // returns at once: nothing will ever be written again
    }

    private String text() {
        return sink.toString(StandardCharsets.UTF_8);
    }
}
