package dev.fleet.mcp.relay;

import dev.fleet.mcp.jsonrpc.ByteOrderMark;
import dev.fleet.mcp.stdio.BoundedLines;
import java.util.Arrays;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one of the relay's pumps (the client's stdin, the child's stdout) hands each line it reads to: the relay,
 * without a byte order mark the line began with ({@link ByteOrderMark}: passed on, it would make the line no JSON to
 * the other side), and the flush before each read. One line the relay fails on is dropped, never the pump.
 */
final class PumpSink {

    private static final Logger LOG = LoggerFactory.getLogger(RelayServer.class);

    /** Where a pump's lines go. */
    @FunctionalInterface
    interface LineConsumer {
        void accept(byte[] buffer, int length);
    }

    private PumpSink() {
    }

    /** Each line to {@code lines}, a line over the limit to {@code tooLong}, and {@code drained} before each read. */
    static BoundedLines.Sink of(LineConsumer lines, IntConsumer tooLong, Runnable drained) {
        return new BoundedLines.Sink() {
            @Override
            public void line(byte[] buffer, int length) {
                try {
                    if (ByteOrderMark.leads(buffer, length)) {
                        byte[] unmarked = Arrays.copyOfRange(buffer, ByteOrderMark.LENGTH, length);
                        lines.accept(unmarked, unmarked.length);
                    } else {
                        lines.accept(buffer, length);
                    }
                } catch (RuntimeException e) {
                    // One bad message never ends the member.
                    LOG.error("relaying a line failed; the line is dropped", e);
                }
            }

            @Override
            public void tooLong(int limit) {
                tooLong.accept(limit);
            }

            @Override
            public void drained() {
                drained.run();
            }
        };
    }
}
