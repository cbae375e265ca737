package dev.fleet.mcp.relay;

import dev.fleet.domain.Uninterruptibly;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.StopSignals;
import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.mcp.stdio.ClientWatch;
import dev.fleet.mcp.stdio.ExitAction;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member that wraps a server of its own (the contract, §12): MCP relayed over stdio between the
 * client (this process's stdin and stdout) and the child, the fleet's tools and verdict answered
 * here, and the child's whole life bound to this member's.
 *
 * <p>The first of these ends it: stdin EOF or the client's death ({@link ClientWatch}), exit 0;
 * SIGTERM or SIGINT (and {@link StopSignals}), 128 + the signal; the child exiting on its own, the
 * child's status. Each time the child and everything it started are ended within
 * {@link ServedChild#EXIT_GRACE} + {@link ServedChild#TERM_GRACE} ({@link ServedChild#end}), and only
 * then is the row marked stopped.
 */
public final class RelayServer {

    private static final Logger LOG = LoggerFactory.getLogger(RelayServer.class);
    /** How long the child's last lines may take to reach the client once it has exited. */
    private static final long DRAIN_MILLIS = 1_000;
    /** What the client's stdout gathers before a write: a pipe's capacity. */
    private static final int PROTOCOL_BUFFER_BYTES = 64 * 1024;

    private final FleetMcpServer fleet;
    private final ServedChild child;
    private final LineOutput toChild;
    private final Relay relay;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicReference<End> end = new AtomicReference<>();
    private boolean childEnded;

    /** Why the member ends, and so its exit status. */
    private record End(String why, int status, boolean childExited) {
    }

    private RelayServer(FleetMcpServer fleet, ServedChild child, LineOutput toClient) {
        this.fleet = fleet;
        this.child = child;
        this.toChild = new LineOutput(child.stdin(), "the wrapped server");
        this.relay = new Relay(fleet.answers(), toClient, toChild);
    }

    /**
     * Relays between this process's stdin/stdout and {@code child}, registered through {@code fleet},
     * until one of the ends above; then exits. Never returns normally.
     */
    public static void serve(FleetMcpServer fleet, ServedChild child, ClientWatch watch) {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(watch, "watch");
        // Buffered: a line and its newline leave in one write, and a burst of lines in a few
        // (LineOutput, BoundedLines.Sink#drained); unbuffered, each line cost the client two reads.
        OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
                PROTOCOL_BUFFER_BYTES);
        System.setOut(System.err); // stdout is the protocol's: a library that prints reaches stderr
        RelayServer server = new RelayServer(fleet, child, new LineOutput(protocol, "the client"));
        int status = server.run(System.in, watch);
        ExitAction.systemExit().exit(status);
    }

    private int run(InputStream stdin, ClientWatch watch) {
        // A signal ends the child first (passed on), then the row: the hook runs while main waits.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            endChild(true);
            fleet.markStopped();
        }, "fleet-relay-shutdown"));
        StopSignals.install();
        fleet.register(); // the child has started and both pipes are open
        Thread childPump = daemon("fleet-relay-from-server", () -> {
            new BoundedLines(child.stdout(), "the wrapped server's stdout", BoundedLines.MAX_LINE_BYTES)
                    .forEach(sink(relay::fromChild, relay::childLineTooLong, relay::childDrained));
        });
        daemon("fleet-relay-server-exit", () -> {
            int status = Uninterruptibly.await(child::waitFor);
            Uninterruptibly.await(() -> {
                childPump.join(DRAIN_MILLIS);
                return null;
            });
            finish(new End("the wrapped server exited with status " + status, status, true));
        });
        daemon("fleet-relay-from-client", () -> {
            new BoundedLines(stdin, "stdin", BoundedLines.MAX_LINE_BYTES)
                    .forEach(sink(relay::fromClient, relay::clientLineTooLong, relay::clientDrained));
            finish(new End("stdin closed", 0, false));
        });
        daemon("fleet-relay-tree", () -> {
            try {
                while (child.isAlive()) {
                    child.track();
                    TimeUnit.SECONDS.sleep(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        watch.start(reason -> finish(new End(reason, 0, false)));
        Uninterruptibly.await(ended);
        End first = end.get();
        LOG.info("{}: ending the wrapped server ({}), marking this member stopped and exiting", first.why(), child);
        endChild(false);
        relay.close();
        fleet.markStopped();
        return first.status();
    }

    private void finish(End why) {
        if (end.compareAndSet(null, why)) {
            ended.countDown();
        }
    }

    /** Ends the child's tree once; a second caller (a signal during the first) waits for the first. */
    private synchronized void endChild(boolean passSignal) {
        if (childEnded) {
            return;
        }
        childEnded = true;
        Uninterruptibly.await(() -> {
            child.end(toChild::close, passSignal);
            return null;
        });
    }

    /** One pump's sink: each line to {@code lines}, and {@code drained} (the flush) before each read. */
    static BoundedLines.Sink sink(LineConsumer lines, IntConsumer tooLong, Runnable drained) {
        return new BoundedLines.Sink() {
            @Override
            public void line(byte[] buffer, int length) {
                try {
                    lines.accept(buffer, length);
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

    @FunctionalInterface
    interface LineConsumer {
        void accept(byte[] buffer, int length);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
