package dev.fleet.mcp.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way stdio reads lines, whether a plain server reads its client or a relay reads its client
 * and its child: a byte stream split on {@code \n}, each line at most {@code maxLineBytes} (the
 * contract: 16 MiB), never decoded here and never held beyond that. A longer line is reported once,
 * as soon as it crosses the limit, and the rest of it is read and thrown away up to its newline, so
 * a peer that sends gigabytes without a newline costs at most the limit in memory. A trailing
 * carriage return (CRLF) is not part of a line. A read error counts as the end (logged in one line):
 * such a stream will never carry another message.
 *
 * <p>Not thread-safe: one thread reads one stream.
 */
public final class BoundedLines {

    /** The contract: a longer line is never passed on. */
    public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(BoundedLines.class);
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final int INITIAL_LINE_BYTES = 8 * 1024;

    /** What becomes of each line read. */
    public interface Sink {
        /** One whole line, without its terminator, in {@code buffer[0, length)}; valid only during the call. */
        void line(byte[] buffer, int length);

        /** A line longer than {@code limit} bytes has begun; it is being discarded. */
        void tooLong(int limit);

        /**
         * Every byte read so far has been handed over, and the next line needs a read that may wait:
         * the moment for a sink that passes lines on to flush them, once for all the lines one read
         * brought rather than once a line.
         */
        default void drained() {
        }
    }

    private final InputStream in;
    private final String name;
    private final int maxLineBytes;

    private final byte[] chunk = new byte[CHUNK_BYTES];
    private int chunkPosition;
    private int chunkLimit;
    private boolean ended;

    private byte[] line = new byte[INITIAL_LINE_BYTES];
    private int lineLength;
    private boolean discarding;

    /** @param name what the stream is, for the one log line a read error gets ("stdin", "the server's stdout") */
    public BoundedLines(InputStream in, String name, int maxLineBytes) {
        this.in = Objects.requireNonNull(in, "in");
        this.name = Objects.requireNonNull(name, "name");
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be positive, got " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Reads until one line has gone to {@code sink} (long lines on the way are reported and
     * skipped). False at the end of the stream, when no line was left (a last line without a
     * newline still counts as a line).
     */
    public boolean next(Sink sink) {
        lineLength = 0;
        while (true) {
            if (chunkPosition == chunkLimit && !fill(sink)) {
                boolean last = lineLength > 0 && !discarding;
                discarding = false;
                return last && deliver(sink);
            }
            int newline = indexOfNewline();
            int end = newline < 0 ? chunkLimit : newline;
            if (!discarding) {
                append(end, sink);
            }
            chunkPosition = newline < 0 ? chunkLimit : newline + 1;
            if (newline >= 0) {
                if (discarding) {
                    discarding = false; // the long line is over; the next one is read afresh
                    continue;
                }
                if (deliver(sink)) {
                    return true;
                }
                lineLength = 0;
            }
        }
    }

    /** Reads every line into {@code sink} until the end of the stream. */
    public void forEach(Sink sink) {
        while (next(sink)) {
            // each line has gone to the sink
        }
    }

    /**
     * Drops a trailing carriage return, then hands the line over. The buffer may hold one byte more
     * than the limit (a line of exactly the limit, then CR); a line still longer is too long.
     */
    private boolean deliver(Sink sink) {
        if (lineLength > 0 && line[lineLength - 1] == '\r') {
            lineLength--;
        }
        if (lineLength > maxLineBytes) {
            sink.tooLong(maxLineBytes);
            shrink();
            return false;
        }
        try {
            sink.line(line, lineLength);
        } finally {
            shrink();
        }
        return true;
    }

    private void append(int end, Sink sink) {
        int count = end - chunkPosition;
        if (lineLength + count > maxLineBytes + 1) {
            discarding = true;
            sink.tooLong(maxLineBytes);
            shrink();
            return;
        }
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, (int) Math.min((long) maxLineBytes + 1,
                    Math.max((long) line.length * 2, lineLength + count)));
        }
        System.arraycopy(chunk, chunkPosition, line, lineLength, count);
        lineLength += count;
    }

    /** Lets a large line's buffer go once it is no longer needed. */
    private void shrink() {
        lineLength = 0;
        if (line.length > INITIAL_LINE_BYTES) {
            line = new byte[INITIAL_LINE_BYTES];
        }
    }

    private int indexOfNewline() {
        for (int i = chunkPosition; i < chunkLimit; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The next chunk, once the sink has been told that everything before it has gone its way. */
    private boolean fill(Sink sink) {
        sink.drained();
        if (ended) {
            return false;
        }
        int count;
        try {
            do {
                count = in.read(chunk, 0, chunk.length);
            } while (count == 0);
        } catch (IOException e) {
            LOG.warn("reading {} failed, treating it as the end of input: {}", name, e.toString());
            count = -1;
        }
        if (count < 0) {
            ended = true;
            return false;
        }
        chunkPosition = 0;
        chunkLimit = count;
        return true;
    }
}
