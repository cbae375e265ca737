package dev.fleet.mcp.stdio;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio server's stdout, shared by two writers: the SDK's outbound thread (its responses) and
 * the stdin gate (its error replies to lines the SDK never sees). Every write reaches the real
 * stream as whole lines under one lock, so the two can never interleave inside a message.
 *
 * <p>The SDK writes a message as {@code write(json); write("\n"); flush()} (inside its own
 * {@code synchronized} on this object, which is this object's lock too). Its bytes are held here
 * until their newline and only then passed on, together, so a reply from the gate lands between
 * two SDK lines even if the SDK ever stopped synchronising. {@link #writeLine} passes a complete
 * line at once.
 *
 * <p>It also bounds the answers waiting to be written (the contract: at most
 * {@value #MAX_UNWRITTEN_ANSWERS}). Every request passed to the SDK is answered by exactly one SDK
 * line, so the stdin gate {@link #reserveAnswer() reserves} a place before it passes a request, and
 * each SDK line written frees one. A client that stops reading stdout fills the pipe, the SDK's
 * writes block, no place frees up, and the gate stops reading stdin: the client's writes then block
 * in turn, instead of this server queueing its answers without limit. Nothing is lost: once the
 * client reads, answers flow and stdin is read again.
 */
final class ProtocolOutput extends OutputStream {

    /** The contract: requests handed to the SDK and not yet answered on stdout, at most. */
    static final int MAX_UNWRITTEN_ANSWERS = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolOutput.class);
    private static final int KEEP_BUFFER_BYTES = 64 * 1024;
    private static final long STALL_LOG_MILLIS = 5_000;

    private final OutputStream sink;
    private final int maxUnwritten;
    private ByteArrayOutputStream partial = new ByteArrayOutputStream();

    /** Guards the count below; never this object's monitor, which a blocked SDK write holds. */
    private final Object answers = new Object();
    private int unwritten;
    /** Set once stdout failed: nothing will be written again, so nothing is worth waiting for. */
    private boolean broken;

    ProtocolOutput(OutputStream sink) {
        this(sink, MAX_UNWRITTEN_ANSWERS);
    }

    ProtocolOutput(OutputStream sink, int maxUnwritten) {
        this.sink = Objects.requireNonNull(sink, "sink");
        if (maxUnwritten < 1) {
            throw new IllegalArgumentException("maxUnwritten must be positive, got " + maxUnwritten);
        }
        this.maxUnwritten = maxUnwritten;
    }

    /**
     * Takes a place for one answer, first waiting while {@code maxUnwritten} answers are still
     * unwritten (the client is not reading stdout). Called by the one stdin thread before it hands
     * a request to the SDK, so while this waits, stdin is not read. The wait has no deadline by
     * design: a client may read late, and SIGTERM or a broken stdout still end it.
     */
    void reserveAnswer() {
        synchronized (answers) {
            long waitedMillis = 0;
            boolean interrupted = false;
            while (unwritten >= maxUnwritten && !broken) {
                try {
                    answers.wait(STALL_LOG_MILLIS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                waitedMillis += STALL_LOG_MILLIS;
                if (waitedMillis == STALL_LOG_MILLIS && unwritten >= maxUnwritten) {
                    LOG.warn("{} answers wait for the client to read stdout: not reading stdin until it does",
                            unwritten);
                }
            }
            unwritten++;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Writes {@code line} (which must hold no newline) and a newline, then flushes: one message. */
    synchronized void writeLine(byte[] line) throws IOException {
        for (byte b : line) {
            if (b == '\n' || b == '\r') {
                throw new IllegalArgumentException("a protocol line must not contain a line break");
            }
        }
        byte[] whole = new byte[line.length + 1];
        System.arraycopy(line, 0, whole, 0, line.length);
        whole[line.length] = '\n';
        try {
            sink.write(whole);
            sink.flush();
        } catch (IOException | RuntimeException e) {
            stopBounding();
            throw e;
        }
    }

    @Override
    public synchronized void write(int b) throws IOException {
        partial.write(b);
        if (b == '\n') {
            emitPartial();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (bytes[i] == '\n') {
                partial.write(bytes, start, i + 1 - start);
                emitPartial();
                start = i + 1;
            }
        }
        partial.write(bytes, start, end - start);
    }

    /** Flushes what has been passed on; an unfinished line stays held until its newline. */
    @Override
    public synchronized void flush() throws IOException {
        sink.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        sink.close();
    }

    private void emitPartial() throws IOException {
        try {
            partial.writeTo(sink);
        } catch (IOException | RuntimeException e) {
            stopBounding();
            throw e;
        }
        answered();
        if (partial.size() > KEEP_BUFFER_BYTES) {
            partial = new ByteArrayOutputStream(); // let a large answer's buffer go
        } else {
            partial.reset();
        }
    }

    /** One SDK line is out: its place is free. A line that answers nothing reserved frees nothing. */
    private void answered() {
        synchronized (answers) {
            if (unwritten > 0) {
                unwritten--;
                answers.notifyAll();
            }
        }
    }

    /** stdout failed: let stdin be read on, so its end (the client has gone) is seen. */
    private void stopBounding() {
        synchronized (answers) {
            broken = true;
            answers.notifyAll();
        }
    }
}
