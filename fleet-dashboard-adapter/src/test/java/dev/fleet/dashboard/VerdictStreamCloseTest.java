package dev.fleet.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.verdict.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stream closed while it looks says nothing: the look's interruption is the close, not a failed
 * assessment. CI once saw {@code fleet dashboard} on a taken port print a second line, a warning that
 * the first look (interrupted by the refusal's close) had failed.
 */
class VerdictStreamCloseTest {

    @Test
    void aLookInterruptedByCloseIsNoWarningAndIsOverWhenCloseReturns() throws Exception {
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch lookEnded = new CountDownLatch(1);
        PrintStream stderr = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            VerdictStream stream = new VerdictStream(() -> interruptedLook(looking, lookEnded), Duration.ofHours(1),
                    Duration.ofHours(1), 4);
            assertTrue(looking.await(30, TimeUnit.SECONDS), "the first look started");
            stream.close();
            assertEquals(0, lookEnded.getCount(), "close() returns once the look under way is over");
        } finally {
            System.setErr(stderr);
        }
        assertEquals("", said.toString(StandardCharsets.UTF_8));
    }

    /** What the observer does when its thread is interrupted mid-look (BoundedCompile): it throws. */
    private static Verdict interruptedLook(CountDownLatch looking, CountDownLatch lookEnded) {
        looking.countDown();
        try {
            Thread.sleep(Duration.ofHours(1).toMillis());
            throw new AssertionError("never interrupted");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling a server process pattern", e);
        } finally {
            lookEnded.countDown();
        }
    }
}
