package dev.fleet.mcp.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standard input as the SDK's stdio transport should see it: only lines the {@link Gate} admits,
 * each whole and newline-terminated, and a signal when stdin ends.
 *
 * <p>Lines are split on bytes, never decoded here, and never held beyond {@code maxLineBytes}
 * (the contract: 16 MiB): a longer line is reported to the gate once, as soon as it crosses the limit,
 * and the rest of it is read and thrown away up to its newline, so a client that sends gigabytes
 * without a newline costs this server at most the limit in memory. A trailing carriage return
 * (CRLF) is not part of a line.
 *
 * <p>The SDK only stops reading at EOF without ending the process, so the server learns of the
 * client's departure here. A read error counts as the end too, since such a stdin will never carry
 * another request; it is logged in one line and reported to the SDK as EOF (the SDK would log a
 * stack trace for it).
 */
final class StdinLines extends InputStream {

    /** The contract: a longer line is discarded with an error reply. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(StdinLines.class);
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final int INITIAL_LINE_BYTES = 8 * 1024;
    private static final byte[] NOTHING = new byte[0];

    /** What happens to each line: passed on to the SDK, or answered (or dropped) by the gate itself. */
    interface Gate {
        /** @return the bytes to hand to the SDK (ending in a newline), or null to read on */
        byte[] admit(byte[] buffer, int length);

        /** A line longer than {@code limit} bytes has begun; it is being discarded. */
        void tooLong(int limit);
    }

    private final InputStream stdin;
    private final Gate gate;
    private final Runnable onEnd;
    private final int maxLineBytes;

    private final byte[] chunk = new byte[CHUNK_BYTES];
    private int chunkPosition;
    private int chunkLimit;
    private boolean stdinEnded;

    private byte[] line = new byte[INITIAL_LINE_BYTES];
    private int lineLength;
    private boolean discarding;

    private byte[] admitted = NOTHING;
    private int position;
    private boolean ended;

    StdinLines(InputStream stdin, Gate gate, Runnable onEnd) {
        this(stdin, gate, onEnd, MAX_LINE_BYTES);
    }

    StdinLines(InputStream stdin, Gate gate, Runnable onEnd, int maxLineBytes) {
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be positive, got " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    public int read() throws IOException {
        return nextLineIfNeeded() ? admitted[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (!nextLineIfNeeded()) {
            return -1;
        }
        int count = Math.min(length, admitted.length - position);
        System.arraycopy(admitted, position, buffer, offset, count);
        position += count;
        return count;
    }

    /** Never blocks: what is left of the line at hand. */
    @Override
    public int available() {
        return admitted.length - position;
    }

    /** Blocks for the next admitted line only when the current one is used up; false at the end. */
    private boolean nextLineIfNeeded() {
        while (position == admitted.length) {
            if (ended) {
                return false;
            }
            if (!readLine()) {
                end();
                return false;
            }
            byte[] next = gate.admit(line, lineLength);
            shrink();
            if (next != null) {
                admitted = next;
                position = 0;
            }
        }
        return true;
    }

    /**
     * Reads the next line of at most {@code maxLineBytes} into {@link #line}, discarding longer ones
     * on the way. False at the end of stdin (a last line without a newline still counts as a line).
     */
    private boolean readLine() {
        lineLength = 0;
        while (true) {
            if (chunkPosition == chunkLimit && !fill()) {
                boolean last = lineLength > 0 && !discarding;
                discarding = false;
                return last && trimmedFits();
            }
            int newline = indexOfNewline();
            int end = newline < 0 ? chunkLimit : newline;
            if (!discarding) {
                append(end);
            }
            chunkPosition = newline < 0 ? chunkLimit : newline + 1;
            if (newline >= 0) {
                if (discarding) {
                    discarding = false; // the long line is over; the next one is read afresh
                    continue;
                }
                if (trimmedFits()) {
                    return true;
                }
                lineLength = 0;
            }
        }
    }

    /**
     * Drops a trailing carriage return. The buffer may hold one byte more than the limit (a line of
     * exactly the limit, then CR); a line still longer is answered as too long.
     */
    private boolean trimmedFits() {
        if (lineLength > 0 && line[lineLength - 1] == '\r') {
            lineLength--;
        }
        if (lineLength > maxLineBytes) {
            gate.tooLong(maxLineBytes);
            shrink();
            return false;
        }
        return true;
    }

    private void append(int end) {
        int count = end - chunkPosition;
        if (lineLength + count > maxLineBytes + 1) {
            discarding = true;
            gate.tooLong(maxLineBytes);
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

    private boolean fill() {
        if (stdinEnded) {
            return false;
        }
        int count;
        try {
            do {
                count = stdin.read(chunk, 0, chunk.length);
            } while (count == 0);
        } catch (IOException e) {
            LOG.warn("reading stdin failed, treating it as the end of input: {}", e.toString());
            count = -1;
        }
        if (count < 0) {
            stdinEnded = true;
            return false;
        }
        chunkPosition = 0;
        chunkLimit = count;
        return true;
    }

    private void end() {
        if (!ended) {
            ended = true;
            onEnd.run();
        }
    }
}
