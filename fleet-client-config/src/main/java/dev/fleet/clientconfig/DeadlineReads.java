package dev.fleet.clientconfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A file's first bytes, read within a deadline. A path checked to be a regular file may still block its
 * reader: a FIFO swapped in after the check, {@code /proc/kmsg} (regular to {@code stat}, yet a read
 * waits for the kernel's next message), a file on a stalled network mount. So the read runs on a daemon
 * thread of its own, and a read that outlives its deadline is given up (its thread left to the read,
 * never holding the process up at exit). At most {@value #READERS} reads wait at once: a long-running
 * process ({@code fleet metrics}) asked again and again about a file that never answers keeps no more.
 * Public for the CLI's roster file, which a user names and which may block the same way.
 */
public final class DeadlineReads {

    /** How long one file may take: a local file answers in microseconds. */
    public static final Duration DEADLINE = Duration.ofSeconds(2);
    static final int READERS = 8;

    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, READERS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "fleet-config-read");
                thread.setDaemon(true);
                return thread;
            });

    private DeadlineReads() {
    }

    /**
     * Up to {@code maxBytes} of {@code file}, as {@link InputStream#readNBytes} reads them.
     *
     * @throws IOException as the read failed, or {@link Slow} when it did not end within {@link #DEADLINE}
     *     (or {@value #READERS} earlier reads still wait)
     */
    public static byte[] head(Path file, int maxBytes) throws IOException {
        Future<byte[]> read;
        try {
            read = POOL.submit(() -> {
                try (InputStream in = Files.newInputStream(file)) {
                    return in.readNBytes(maxBytes);
                }
            });
        } catch (RejectedExecutionException e) {
            throw new Slow(READERS + " earlier reads still wait");
        }
        try {
            return read.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            read.cancel(true);
            throw new Slow("no answer within " + DEADLINE.toSeconds() + " s");
        } catch (InterruptedException e) {
            read.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + file);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failed) {
                throw failed;
            }
            throw new IOException(e.getCause());
        }
    }

    /** A read that did not end in time. */
    public static final class Slow extends IOException {
        Slow(String message) {
            super(message);
        }
    }
}
