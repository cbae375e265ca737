package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What one read brings leaves in one write (docs/PERFORMANCE.md, "The relay"): the relay's pumps pass
 * lines on unflushed and flush once their read is drained, before the next read (which may wait), so
 * a burst of pipelined requests costs the child a few reads instead of one a line, and a single
 * request waits for nothing.
 */
class RelayBurstTest {

    private static final int BURST = 100;

    private final Pipe toClient = new Pipe();
    private final Pipe toChild = new Pipe();
    private final Relay relay = new Relay(member(), new LineOutput(new BufferedOutputStream(toClient, 64 * 1024),
            "the client"), new LineOutput(new BufferedOutputStream(toChild, 64 * 1024), "the child"));

    private static dev.fleet.mcp.FleetAnswers member() {
        FleetMcpServer member = Fixtures.stdioMember();
        member.register();
        return member.answers();
    }

    @AfterEach
    void close() {
        relay.close();
    }

    @Test
    void aBurstOfClientRequestsReachesTheChildInOneWriteBeforeTheNextRead() {
        List<String> requests = numbered(id -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"call " + id + "\"}}}");
        assertPassedInOneWrite(requests, "stdin",
                PumpSink.of(relay::fromClient, relay::clientLineTooLong, relay::clientDrained), toChild);
    }

    @Test
    void aBurstOfTheChildsAnswersReachesTheClientInOneWriteBeforeTheNextRead() {
        numbered(id -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"echo\"}}").forEach(request -> relay.fromClient(request.getBytes(UTF_8), request.length()));
        relay.clientDrained();
        List<String> answers = numbered(id -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":"
                + "[{\"type\":\"text\",\"text\":\"call " + id + "\"}]}}");
        assertPassedInOneWrite(answers, "the wrapped server's stdout",
                PumpSink.of(relay::fromChild, relay::childLineTooLong, relay::childDrained), toClient);
    }

    private static List<String> numbered(IntFunction<String> line) {
        return IntStream.rangeClosed(1, BURST).mapToObj(line).toList();
    }

    /** {@code lines} read in one burst from {@code source} into {@code sink} left in one write to {@code peer}. */
    private static void assertPassedInOneWrite(List<String> lines, String source, BoundedLines.Sink sink, Pipe peer) {
        Burst input = new Burst(lines, peer);
        new BoundedLines(input, source, BoundedLines.MAX_LINE_BYTES).forEach(sink);
        assertEquals(lines, input.seenBeforeNextRead, "every line had left before the pump read again");
        assertEquals(lines, peer.lines(), "byte for byte, in order");
        assertEquals(1, peer.writes, "one write for the burst, not one a line");
    }

    /** A peer's end of a pipe: what reached it, and in how many writes. */
    private static final class Pipe extends ByteArrayOutputStream {
        int writes;

        @Override
        public synchronized void write(int b) {
            writes++;
            super.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            writes++;
            super.write(b, off, len);
        }

        synchronized List<String> lines() {
            String text = toString(UTF_8);
            return text.isEmpty() ? List.of() : List.of(text.substring(0, text.length() - 1).split("\n", -1));
        }
    }

    /** Every line in one read; at the next read, notes what the other side has received by then. */
    private static final class Burst extends InputStream {
        private final ByteArrayInputStream lines;
        private final Pipe otherSide;
        private boolean first = true;
        List<String> seenBeforeNextRead;

        Burst(List<String> lines, Pipe otherSide) {
            this.lines = new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(UTF_8));
            this.otherSide = otherSide;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("read a chunk at a time");
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (first) {
                first = false;
                return lines.read(buffer, offset, length);
            }
            seenBeforeNextRead = otherSide.lines();
            return -1;
        }
    }
}
