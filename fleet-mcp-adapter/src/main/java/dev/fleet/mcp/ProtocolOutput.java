package dev.fleet.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

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
 */
final class ProtocolOutput extends OutputStream {

    private static final int KEEP_BUFFER_BYTES = 64 * 1024;

    private final OutputStream sink;
    private ByteArrayOutputStream partial = new ByteArrayOutputStream();

    ProtocolOutput(OutputStream sink) {
        this.sink = Objects.requireNonNull(sink, "sink");
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
        sink.write(whole);
        sink.flush();
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
        partial.writeTo(sink);
        if (partial.size() > KEEP_BUFFER_BYTES) {
            partial = new ByteArrayOutputStream(); // let a large answer's buffer go
        } else {
            partial.reset();
        }
    }
}
