package dev.fleet.mcp.stdio;

import java.io.InputStream;
import java.util.Objects;

/**
 * Standard input as the SDK's stdio transport should see it: only lines the {@link Gate} admits,
 * each whole and newline-terminated, and a signal when stdin ends. The lines themselves come from
 * {@link BoundedLines}, the one line reader of stdio (bounded, never decoded there).
 *
 * <p>The SDK only stops reading at EOF without ending the process, so the server learns of the
 * client's departure here. A read error counts as the end too, reported to the SDK as EOF (the SDK
 * would log a stack trace for it).
 */
final class StdinLines extends InputStream {

    /** The contract: a longer line is discarded with an error reply. */
    static final int MAX_LINE_BYTES = BoundedLines.MAX_LINE_BYTES;

    private static final byte[] NOTHING = new byte[0];

    /** What happens to each line: passed on to the SDK, or answered (or dropped) by the gate itself. */
    interface Gate {
        /** @return the bytes to hand to the SDK (ending in a newline), or null to read on */
        byte[] admit(byte[] buffer, int length);

        /** A line longer than {@code limit} bytes has begun; it is being discarded. */
        void tooLong(int limit);
    }

    private final BoundedLines lines;
    private final Runnable onEnd;
    private final BoundedLines.Sink toGate;

    private byte[] admitted = NOTHING;
    private int position;
    private boolean ended;

    StdinLines(InputStream stdin, Gate gate, Runnable onEnd) {
        this(stdin, gate, onEnd, MAX_LINE_BYTES);
    }

    StdinLines(InputStream stdin, Gate gate, Runnable onEnd, int maxLineBytes) {
        this.lines = new BoundedLines(Objects.requireNonNull(stdin, "stdin"), "stdin", maxLineBytes);
        Objects.requireNonNull(gate, "gate");
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
        this.toGate = new BoundedLines.Sink() {
            @Override
            public void line(byte[] buffer, int length) {
                byte[] next = gate.admit(buffer, length);
                if (next != null) {
                    admitted = next;
                    position = 0;
                }
            }

            @Override
            public void tooLong(int limit) {
                gate.tooLong(limit);
            }
        };
    }

    @Override
    public int read() {
        return nextLineIfNeeded() ? admitted[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
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
            if (!lines.next(toGate)) {
                end();
                return false;
            }
        }
        return true;
    }

    private void end() {
        if (!ended) {
            ended = true;
            onEnd.run();
        }
    }
}
