package dev.fleet.mcp;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A server's stderr that never holds up the thread that logs. An MCP client owns a stdio server's
 * stderr, and one that never reads it (a pipe it keeps but does not drain) would fill it after some
 * 64 KiB: from then on every log line blocked its thread, and a relay pump that warns of each line
 * a broken child writes stopped relaying, so every answer hung. Here each whole line (up to
 * {@value #MAX_LINE_BYTES} bytes; a longer one in pieces of that size) is queued, and one daemon
 * thread writes the queue to the real stderr; when {@value #CAPACITY_BYTES} bytes wait, a line is
 * dropped whole, and once there is room again one line says how many were.
 *
 * <p>At exit the queue is given {@value #DRAIN_MILLIS} ms to leave ({@link #drain}): the shutdown
 * hooks that log call it last, and one of its own drains what was queued before the exit began.
 */
public final class UnblockedStderr extends OutputStream {

    /** Bytes of log lines waiting for stderr, at most: some 1,700 lines of a warning's length. */
    static final int CAPACITY_BYTES = 256 * 1024;
    /** The longest a line waits whole: a longer one is queued in pieces of this size. */
    static final int MAX_LINE_BYTES = 16 * 1024;
    /** A pipe's {@code PIPE_BUF}: a write no longer than this is never interleaved with another writer's. */
    static final int ATOMIC_BYTES = 4096;
    /** How long the writer waits after a write stderr refused for now, before the next. */
    static final long RETRY_MILLIS = 20;
    /** How long an exit waits for the queue to reach stderr, well within the exit's own bound. */
    public static final long DRAIN_MILLIS = 500;

    private static UnblockedStderr installed;

    private final OutputStream target;
    private final Object lock = new Object();
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private final byte[] line = new byte[MAX_LINE_BYTES];
    private int lineLength;
    /** Bytes queued or being written. */
    private int queuedBytes;
    /** Lines dropped since the last note of it. */
    private long dropped;
    /** The lines of the batch being written: still counted in {@link #queuedBytes} until they are. */
    private final List<byte[]> writing = new ArrayList<>();
    /** A write failed (nobody holds the read end any more): nothing is written again. */
    private boolean broken;

    UnblockedStderr(OutputStream target, String threadName) {
        this.target = Objects.requireNonNull(target, "target");
        Thread writer = new Thread(this::writeQueued, threadName);
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Points {@code System.err} at the real stderr through a queue (once per process; again, nothing
     * happens), with a shutdown hook that drains it. Whatever holds {@code System.err} from then on,
     * slf4j-simple's logger included, never waits for the client.
     */
    public static synchronized void install() {
        if (installed != null) {
            return;
        }
        installed = new UnblockedStderr(new FileOutputStream(FileDescriptor.err), "fleet-stderr");
        System.setErr(new OneLineLogs(installed, stderrCharset()));
        Runtime.getRuntime().addShutdownHook(new Thread(UnblockedStderr::drain, "fleet-stderr-drain"));
    }

    /**
     * Waits up to {@value #DRAIN_MILLIS} ms for every line queued so far to reach stderr: a client that
     * reads it gets a server's last lines; one that does not, does not hold up the exit.
     */
    public static void drain() {
        UnblockedStderr stderr;
        synchronized (UnblockedStderr.class) {
            stderr = installed;
        }
        if (stderr != null) {
            System.err.flush();
            stderr.awaitWritten(DRAIN_MILLIS);
        }
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        synchronized (lock) {
            int end = offset + length;
            for (int at = offset; at < end; ) {
                int newline = at;
                while (newline < end && bytes[newline] != '\n') {
                    newline++;
                }
                while (at < newline) {
                    int taken = Math.min(newline - at, MAX_LINE_BYTES - lineLength);
                    System.arraycopy(bytes, at, line, lineLength, taken);
                    lineLength += taken;
                    at += taken;
                    if (lineLength == MAX_LINE_BYTES) {
                        endLine(false);
                    }
                }
                if (newline < end) {
                    endLine(true);
                    at = newline + 1;
                }
            }
        }
    }

    /**
     * Nothing: a {@code PrintStream} that flushes itself flushes after every piece it writes (the 8 KiB
     * its encoder holds, or a {@code print} before the {@code println} that ends the line), and a line
     * must leave whole. What was written without its newline waits for it, or for {@link #drain}.
     */
    @Override
    public void flush() {
        // the line goes at its newline
    }

    /**
     * True when everything queued reached stderr (or could not) within {@code millis}; lines dropped
     * since the last note are noted first, where there is room, since no line may come after.
     */
    boolean awaitWritten(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        synchronized (lock) {
            if (lineLength > 0) {
                endLine(false); // a print never ended by a newline: nothing comes after it now
            }
            while (!broken) {
                byte[] note = note();
                if (note != null && queuedBytes + note.length <= CAPACITY_BYTES) {
                    enqueue(note);
                    dropped = 0;
                }
                if (writing.isEmpty() && queue.isEmpty() && dropped == 0) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** Queues the line so far (with a newline where it ended), or drops it whole when there is no room. */
    private void endLine(boolean newline) {
        byte[] whole = new byte[lineLength + (newline ? 1 : 0)];
        System.arraycopy(line, 0, whole, 0, lineLength);
        if (newline) {
            whole[lineLength] = '\n';
        }
        lineLength = 0;
        if (broken) {
            return;
        }
        byte[] note = note();
        int needed = whole.length + (note == null ? 0 : note.length);
        if (queuedBytes + needed > CAPACITY_BYTES) {
            dropped++;
            return;
        }
        if (note != null) {
            enqueue(note);
            dropped = 0;
        }
        enqueue(whole);
    }

    /** The line that says how many lines were dropped since it was last said; null when none were. */
    private byte[] note() {
        return dropped == 0 ? null : ("fleet: " + dropped + " log lines dropped: nothing read stderr while "
                + CAPACITY_BYTES / 1024 + " KiB of them waited\n").getBytes(StandardCharsets.UTF_8);
    }

    private void enqueue(byte[] bytes) {
        queue.add(bytes);
        queuedBytes += bytes.length;
        lock.notifyAll();
    }

    /**
     * The writer's loop: whole lines, as many as fit in {@value #ATOMIC_BYTES} bytes, in one write. A
     * pipe takes a write that size in one piece, so the child's stderr (the same pipe) never lands
     * inside one of these lines; a longer line is written alone, as it was before the queue.
     */
    private void writeQueued() {
        while (true) {
            byte[] batch;
            synchronized (lock) {
                while (queue.isEmpty()) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                int size = 0;
                do {
                    byte[] next = queue.poll();
                    writing.add(next);
                    size += next.length;
                } while (!queue.isEmpty() && size + queue.peek().length <= ATOMIC_BYTES);
                batch = new byte[size];
                int at = 0;
                for (byte[] bytes : writing) {
                    System.arraycopy(bytes, 0, batch, at, bytes.length);
                    at += bytes.length;
                }
            }
            IOException failure = writeToStderr(batch);
            synchronized (lock) {
                writing.forEach(bytes -> queuedBytes -= bytes.length);
                if (failure != null) {
                    dropped += writing.size(); // or some of them, written before the failure: said either way
                }
                writing.clear();
                broken = failure != null && gone(failure);
                if (broken) {
                    queue.clear(); // nobody reads stderr any more: there is nowhere left to say so
                    queuedBytes = 0;
                }
                lock.notifyAll();
                if (broken) {
                    return;
                }
            }
            if (failure != null) {
                pause(); // a stderr that refused a write for now (a child made it non-blocking: EAGAIN)
            }
        }
    }

    private IOException writeToStderr(byte[] batch) {
        try {
            target.write(batch);
            target.flush();
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    /**
     * Whether a failed write means stderr is gone for good: its reader has closed it (EPIPE) or it is
     * no descriptor at all (EBADF). The JDK says which only in its message. Anything else, say a pipe
     * the child made non-blocking (the same open file as this process's stderr) that was full for a
     * moment, is tried again with the next lines.
     */
    private static boolean gone(IOException failure) {
        String message = String.valueOf(failure.getMessage());
        return message.contains("Broken pipe") || message.contains("Bad file descriptor")
                || failure instanceof java.nio.channels.ClosedChannelException;
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The charset the JVM gave {@code System.err} (JDK 17 has no {@code PrintStream.charset()}): named by
     * {@code stderr.encoding} from JDK 19, by {@code sun.stderr.encoding} (on a terminal) before.
     */
    private static Charset stderrCharset() {
        String name = System.getProperty("stderr.encoding", System.getProperty("sun.stderr.encoding"));
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }
}
