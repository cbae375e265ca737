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
 * <p>Each byte is copied as few times as the line allows: a line that one read brought whole, at
 * the start of that read, is handed over where it was read; a short line begun at the end of a read
 * ({@value #MOVED_BYTES} bytes at most) moves to the start of the chunk and is handed over there
 * once the reads behind it bring its end; the rest of a longer line is read straight into the
 * line's buffer. That buffer, once grown for a long line, is kept while long lines keep coming (for
 * {@value #KEEP_GROWN_SECONDS} s after the last): growing a new one for each message of a few MiB,
 * and the collections that its garbage then cost a member's small heap, were most of what such a
 * message cost the relay (issue 52).
 *
 * <p>Not thread-safe: one thread reads one stream.
 */
public final class BoundedLines {

    /** The contract: a longer line is never passed on. */
    public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(BoundedLines.class);
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final int INITIAL_LINE_BYTES = 8 * 1024;
    /**
     * The longest beginning of a line moved to the chunk's start to be read on behind; a longer one goes
     * to the line's buffer (it would be searched again for its newline after every read).
     */
    private static final int MOVED_BYTES = CHUNK_BYTES / 4;
    private static final long KEEP_GROWN_SECONDS = 30;
    private static final long KEEP_GROWN_NANOS = KEEP_GROWN_SECONDS * 1_000_000_000L;

    /** What becomes of each line read. */
    public interface Sink {
        /** One whole line, without its terminator, in {@code buffer[0, length)}; valid only during the call. */
        void line(byte[] buffer, int length);

        /** A line longer than {@code limit} bytes has begun; it is being discarded. */
        void tooLong(int limit);

        /**
         * Every whole line read so far has been handed over, and the next line needs a read that may wait:
         * the moment for a sink that passes lines on to flush them, once for all the lines one read
         * brought rather than once a line.
         */
        default void drained() {
        }
    }

    private final InputStream in;
    private final String name;
    private final int maxLineBytes;
    /**
     * What the line's buffer may hold at most: the limit, a carriage return, and one byte more, which
     * tells a line of exactly the limit and its CR from a longer one.
     */
    private final int lineCapacity;
    /** {@link #MOVED_BYTES}, or less where a line may not be that long: a longer one is reported at once. */
    private final int movedBytes;

    private final byte[] chunk = new byte[CHUNK_BYTES];
    private int chunkPosition;
    private int chunkLimit;
    private boolean ended;

    private byte[] line = new byte[INITIAL_LINE_BYTES];
    private int lineLength;
    private boolean discarding;
    /** When a line last needed more than the initial buffer ({@link System#nanoTime}). */
    private long lastLongLine;

    /** @param name what the stream is, for the one log line a read error gets ("stdin", "the server's stdout") */
    public BoundedLines(InputStream in, String name, int maxLineBytes) {
        this.in = Objects.requireNonNull(in, "in");
        this.name = Objects.requireNonNull(name, "name");
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be positive, got " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
        this.lineCapacity = (int) Math.min(Integer.MAX_VALUE - 16, (long) maxLineBytes + 2);
        this.movedBytes = Math.min(MOVED_BYTES, maxLineBytes + 1);
        this.lastLongLine = System.nanoTime();
    }

    /**
     * Reads until one line has gone to {@code sink} (long lines on the way are reported and
     * skipped). False at the end of the stream, when no line was left (a last line without a
     * newline still counts as a line).
     */
    public boolean next(Sink sink) {
        lineLength = 0;
        if (line.length > INITIAL_LINE_BYTES && System.nanoTime() - lastLongLine > KEEP_GROWN_NANOS) {
            line = new byte[INITIAL_LINE_BYTES]; // long lines have stopped coming: let the large buffer go
        }
        while (true) {
            if (chunkPosition == chunkLimit) {
                if (lineLength > 0 && !discarding) {
                    Boolean rest = readRestOfLine(sink);
                    if (rest != null) {
                        return rest;
                    }
                    continue;
                }
                if (!fill(sink)) {
                    boolean last = lineLength > 0 && !discarding;
                    discarding = false;
                    return last && deliver(sink, line, lineLength);
                }
            }
            int newline = Newlines.indexOf(chunk, chunkPosition, chunkLimit);
            if (newline >= 0 && chunkPosition == 0 && lineLength == 0 && !discarding) {
                chunkPosition = newline + 1; // the whole line where it was read: handed over from there
                if (deliver(sink, chunk, newline)) {
                    return true;
                }
                continue;
            }
            if (newline < 0 && lineLength == 0 && !discarding && chunkLimit - chunkPosition <= movedBytes) {
                if (!readOnBehind(sink)) {
                    int last = chunkLimit;
                    chunkPosition = chunkLimit = 0;
                    return last > 0 && deliver(sink, chunk, last); // a last line without a newline
                }
                continue;
            }
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
                if (deliver(sink, line, lineLength)) {
                    return true;
                }
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
     * The beginning of a short line ends the chunk: it moves to the chunk's start, and reads fill the
     * rest of the chunk behind it until one brings a newline or the line is no longer short. So every
     * read may take a whole chunk, however the peer's writes split its lines (a burst of requests costs
     * a few reads, not one per line buffer's worth, and a server that writes a message and its newline
     * apart costs no extra copy), and only the bytes each read brought are searched. False at the end
     * of the stream, with the beginning at the chunk's start.
     */
    private boolean readOnBehind(Sink sink) {
        int begun = chunkLimit - chunkPosition;
        if (chunkPosition > 0) {
            System.arraycopy(chunk, chunkPosition, chunk, 0, begun);
            chunkPosition = 0;
            chunkLimit = begun;
        }
        int count;
        do {
            count = read(chunk, chunkLimit, chunk.length - chunkLimit, sink);
            if (count < 0) {
                return false;
            }
            chunkLimit += count;
        } while (chunkLimit <= movedBytes && Newlines.indexOf(chunk, chunkLimit - count, chunkLimit) < 0);
        return true;
    }

    /**
     * A line that the chunk did not hold whole: the rest is read straight into the line's buffer, and
     * what follows its newline in the last read goes back to the chunk. True when the line went to the
     * sink, false at the end of the stream with no line left, null when it was too long (reading goes on).
     */
    private Boolean readRestOfLine(Sink sink) {
        while (true) {
            if (lineLength == line.length) {
                // Grown only once full, doubling up to what a line may hold.
                line = Arrays.copyOf(line, (int) Math.min(lineCapacity, (long) line.length * 2));
            }
            int count = read(line, lineLength, Math.min(CHUNK_BYTES, line.length - lineLength), sink);
            if (count < 0) {
                return deliver(sink, line, lineLength); // a last line without a newline
            }
            int newline = Newlines.indexOf(line, lineLength, lineLength + count);
            if (newline >= 0) {
                int rest = lineLength + count - newline - 1;
                System.arraycopy(line, newline + 1, chunk, 0, rest);
                chunkPosition = 0;
                chunkLimit = rest;
                return deliver(sink, line, newline) ? Boolean.TRUE : null;
            }
            lineLength += count;
            if (lineLength > maxLineBytes + 1) {
                discarding = true;
                sink.tooLong(maxLineBytes);
                shrink();
                return null;
            }
        }
    }

    /**
     * Drops a trailing carriage return, then hands the line in {@code buffer[0, length)} over. The line
     * may hold one byte more than the limit (a line of exactly the limit, then CR); a longer one is too long.
     */
    private boolean deliver(Sink sink, byte[] buffer, int length) {
        lineLength = 0;
        if (buffer == line && length > INITIAL_LINE_BYTES) {
            lastLongLine = System.nanoTime();
        }
        if (length > 0 && buffer[length - 1] == '\r') {
            length--;
        }
        if (length > maxLineBytes) {
            sink.tooLong(maxLineBytes);
            shrink();
            return false;
        }
        sink.line(buffer, length);
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
            line = Arrays.copyOf(line, (int) Math.min(lineCapacity,
                    Math.max((long) line.length * 2, lineLength + count)));
        }
        System.arraycopy(chunk, chunkPosition, line, lineLength, count);
        lineLength += count;
    }

    /** Lets the buffer of a line too long to pass go at once: a peer that sends such lines gets no large buffer kept. */
    private void shrink() {
        lineLength = 0;
        if (line.length > INITIAL_LINE_BYTES) {
            line = new byte[INITIAL_LINE_BYTES];
        }
    }

    /** The next chunk, once the sink has been told that everything before it has gone its way. */
    private boolean fill(Sink sink) {
        int count = read(chunk, 0, chunk.length, sink);
        if (count < 0) {
            return false;
        }
        chunkPosition = 0;
        chunkLimit = count;
        return true;
    }

    /** Up to {@code length} bytes into {@code buffer} at {@code offset} (at least one), or -1 at the end. */
    private int read(byte[] buffer, int offset, int length, Sink sink) {
        sink.drained();
        if (ended) {
            return -1;
        }
        int count;
        try {
            do {
                count = in.read(buffer, offset, length);
            } while (count == 0);
        } catch (IOException e) {
            LOG.warn("reading {} failed, treating it as the end of input: {}", name, e.toString());
            count = -1;
        }
        if (count < 0) {
            ended = true;
        }
        return count;
    }
}
