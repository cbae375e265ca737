package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.mcp.jsonrpc.JsonRpcId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LineOutputTest {

    private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    private final LineOutput out = new LineOutput(sink, "the client");

    @Test
    void aLineIsWrittenWithItsNewlineAndOnlyThePartAsked() {
        byte[] buffer = "{\"a\":1}{\"b\":2}".getBytes(StandardCharsets.UTF_8);

        assertTrue(out.writeLine(buffer, 7));
        assertTrue(out.writeLine("{\"c\":3}".getBytes(StandardCharsets.UTF_8)));

        assertEquals("{\"a\":1}\n{\"c\":3}\n", text());
    }

    @Test
    void aLineIsOneLine() {
        assertThrows(IllegalArgumentException.class, () -> out.writeLine("a\nb".getBytes(StandardCharsets.UTF_8)));
        assertEquals("", text(), "nothing of it was written");
    }

    /** The SDK's session and the gate (or a relay's pump and its own answers) at full speed: every line arrives whole. */
    @Test
    void twoWritersNeverInterleave() throws Exception {
        int lines = 2_000;
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sdk = writer(go, failure, i -> "{\"sdk\":" + i + ",\"pad\":\"" + "s".repeat(i % 97) + "\"}", lines);
        Thread gate = writer(go, failure, i -> "{\"gate\":" + i + "}", lines);
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

    private Thread writer(CountDownLatch go, AtomicReference<Throwable> failure,
            java.util.function.IntFunction<String> line, int lines) {
        Thread thread = new Thread(() -> {
            try {
                go.await();
                for (int i = 0; i < lines; i++) {
                    out.writeLine(line.apply(i).getBytes(StandardCharsets.UTF_8));
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        thread.start();
        return thread;
    }

    @Test
    void aReservationWaitsWhileTheBoundOfUnwrittenAnswersIsReachedAndAnAnswerFreesAPlace() throws Exception {
        LineOutput bounded = new LineOutput(sink, "the client", 2);
        bounded.reserveAnswer(id(1));
        bounded.reserveAnswer(id(2));
        CountDownLatch reserved = new CountDownLatch(1);
        Thread stdinThread = reserving(bounded, reserved);
        assertWaitsForAPlace(stdinThread, "two answers are unwritten: the bound is reached");

        bounded.writeLine("{\"from\":\"gate\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(1, reserved.getCount(), "still waiting");

        bounded.writeAnswer(id(1), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));
        assertTrue(reserved.await(2, TimeUnit.MINUTES), "an answer written frees a place");
        assertWaitsForAPlace(reserving(bounded, new CountDownLatch(1)),
                "two answers are unwritten again: a reply of the gate's own answers nothing reserved");
    }

    /** A daemon thread, standing for the stdin thread, that reserves a place and then counts {@code reserved} down. */
    private static Thread reserving(LineOutput output, CountDownLatch reserved) {
        Thread thread = new Thread(() -> {
            output.reserveAnswer(id(3));
            reserved.countDown();
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * {@code thread} waits inside {@link LineOutput#reserveAnswer} (the one timed wait it can be
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
    void aFailedStreamIsWrittenNoMoreAndStopsTheBoundSoStdinIsReadOnToItsEnd() {
        AtomicInteger attempts = new AtomicInteger();
        LineOutput broken = new LineOutput(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                attempts.incrementAndGet();
                throw new IOException("Broken pipe");
            }
        }, "the client", 1);
        broken.reserveAnswer(id(1));

        assertFalse(broken.writeAnswer(id(1), "{\"id\":1}".getBytes(StandardCharsets.UTF_8)));
        int tried = attempts.get();
        assertFalse(broken.writeLine("{\"id\":2}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(tried, attempts.get(), "nothing is written once the peer has gone");

        broken.reserveAnswer(id(2));
        broken.reserveAnswer(id(3)); // returns at once: nothing will ever be written again
    }

    @Test
    void atTheStopEachRequestStillOwedIsAnsweredWithAnErrorOnceAndItsLateAnswerIsNotWritten() {
        out.reserveAnswer(id(1));
        out.reserveAnswer(id(2));
        out.reserveAnswer(id(2)); // an id reused while its first request waits: owed twice
        out.writeAnswer(id(1), "{\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8));

        out.endAnswers(id -> ("{\"id\":" + id.json() + ",\"error\":{}}").getBytes(StandardCharsets.UTF_8),
                System.nanoTime() + TimeUnit.MINUTES.toNanos(2));
        assertFalse(out.writeAnswer(id(2), "{\"id\":2,\"result\":{}}".getBytes(StandardCharsets.UTF_8)),
                "an answer after its request was answered at the stop is not written");

        assertEquals("{\"id\":1,\"result\":{}}\n{\"id\":2,\"error\":{}}\n{\"id\":2,\"error\":{}}\n", text());
    }

    private static JsonRpcId id(long value) {
        return JsonRpcId.ofValue(value);
    }

    private String text() {
        return sink.toString(StandardCharsets.UTF_8);
    }
}
