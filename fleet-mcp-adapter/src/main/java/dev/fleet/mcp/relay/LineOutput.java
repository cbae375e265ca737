package dev.fleet.mcp.relay;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One side's input, written a whole line at a time under one lock, so that the relay's two writers
 * into it (the pump from the other side, and the member's own answers) never interleave inside a
 * message. Once a write fails (the peer has gone) nothing more is written; that is logged once.
 * The stream should buffer (a line and its newline then leave in one write): {@link #writeLine}
 * flushes each line, {@link #passLine} leaves that to the pump's {@link #flush}.
 */
final class LineOutput {

    private static final Logger LOG = LoggerFactory.getLogger(LineOutput.class);

    private final OutputStream out;
    private final String name;
    private boolean broken;

    /** @param name whose input this is, for the one log line ("the client", "the server") */
    LineOutput(OutputStream out, String name) {
        this.out = Objects.requireNonNull(out, "out");
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Writes {@code buffer[0, length)} and a newline, then flushes; false when the peer is gone. */
    synchronized boolean writeLine(byte[] buffer, int length) {
        return passLine(buffer, length) && flush();
    }

    synchronized boolean writeLine(byte[] line) {
        return writeLine(line, line.length);
    }

    /**
     * Writes {@code buffer[0, length)} and a newline, to be flushed with the lines after it: a pump
     * passing on what one read brought flushes once that read is drained ({@link #flush}), so a burst
     * of lines costs the peer a few reads, not one a line. False when the peer is gone.
     */
    synchronized boolean passLine(byte[] buffer, int length) {
        if (broken) {
            return false;
        }
        try {
            out.write(buffer, 0, length);
            out.write('\n');
            return true;
        } catch (IOException e) {
            return failed(e);
        }
    }

    /** Sends what was written; false when the peer is gone. */
    synchronized boolean flush() {
        if (broken) {
            return false;
        }
        try {
            out.flush();
            return true;
        } catch (IOException e) {
            return failed(e);
        }
    }

    private boolean failed(IOException e) {
        broken = true;
        LOG.info("{} no longer reads its input ({}): nothing more is written to it", name, e.getMessage());
        return false;
    }

    /** Closes the stream (the child's stdin: how a server is told its client has gone). */
    synchronized void close() {
        broken = true;
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("closing {}'s input: {}", name, e.toString());
        }
    }
}
