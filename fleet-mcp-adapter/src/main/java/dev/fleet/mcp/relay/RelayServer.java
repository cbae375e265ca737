package dev.fleet.mcp.relay;

import dev.fleet.domain.Uninterruptibly;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.StopSignals;
import dev.fleet.mcp.UnblockedStderr;
import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.mcp.stdio.ClientWatch;
import dev.fleet.mcp.stdio.ExitAction;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * A member that wraps a server of its own (the contract, §12 and §12.1): MCP relayed over stdio between
 * the client (this process's stdin and stdout) and the child, the fleet's tools and verdict answered
 * here, and the child's whole life bound to this member's.
 *
 * <p>The first of these ends it and decides its exit: stdin EOF or the client's death
 * ({@link ClientWatch}), 0; SIGTERM or SIGINT, 128 + the signal; the child exiting on its own, the
 * child's status. Then, on this one thread (the main thread, which started the child and must outlive
 * it: the child's parent-death signal is bound to it): the child's tree is ended within 2 s of EOF
 * and 1 s of a signal ({@link TreeTeardown}; a signal arriving meanwhile hurries it), every line the
 * child wrote and every answer of this member's own still under way reach the client (bounded), and
 * the row is marked stopped; then the process exits. Another stop signal ({@link StopSignals#NAMES})
 * ends it as SIGTERM does, with 128 + its own number.
 */
public final class RelayServer {

    private static final Logger LOG = LoggerFactory.getLogger(RelayServer.class);
    /**
     * How long the child's last lines may take to reach the client once its tree is gone: the pipe's
     * writers are gone then, so its end is read at once; the bound is for a client that stopped reading.
     */
    private static final long DRAIN_MILLIS = 500;
    /** What the client's stdout, and the child's stdin, gather before a write: a pipe's capacity. */
    private static final int PROTOCOL_BUFFER_BYTES = 64 * 1024;

    private final FleetMcpServer fleet;
    private final ServedChild child;
    private final LineOutput toChild;
    private final Relay relay;
    private final ClosableStdin stdin = ClosableStdin.open();
    private final CountDownLatch ended = new CountDownLatch(1);
    /** Counted down by SIGTERM or SIGINT (or another stop signal): the tree gets SIGTERM at once. */
    private final CountDownLatch signalled = new CountDownLatch(1);
    private final AtomicReference<End> end = new AtomicReference<>();
    private volatile Thread childPump;
    private boolean over;
    /** Until the row is written: an end meanwhile ends the tree at once, not after the registration. */
    private volatile boolean registering = true;
    private final Object treeEnding = new Object();
    private boolean treeEnded;

    /** Why the member ends, and so its exit status. */
    private record End(String why, int status) {
    }

    private RelayServer(FleetMcpServer fleet, ServedChild child, LineOutput toClient) {
        this.fleet = fleet;
        this.child = child;
        // The process's own stream buffers 8 KiB: a read of 64 KiB of requests would leave in eight
        // writes, each waking the child; in one buffer as large as the read, it leaves in one.
        this.toChild = new LineOutput(new BufferedOutputStream(child.stdin(), PROTOCOL_BUFFER_BYTES),
                "the wrapped server");
        this.relay = new Relay(fleet.answers(), toClient, toChild);
    }

    /**
     * Relays between this process's stdin/stdout and {@code child}, registered through {@code fleet},
     * until one of the ends above; then exits. Never returns normally. Call it on the thread that
     * started {@code child}.
     */
    public static void serve(FleetMcpServer fleet, ServedChild child, ClientWatch watch) {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(watch, "watch");
        // Buffered: a line and its newline leave in one write, and a burst of lines in a few
        // (LineOutput, BoundedLines.Sink#drained); unbuffered, each line cost the client two reads.
        OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
                PROTOCOL_BUFFER_BYTES);
        UnblockedStderr.install(); // the client owns stderr: a client that never reads it must not stop the relay
        System.setOut(System.err); // stdout is the protocol's: a library that prints reaches stderr
        RelayServer server = new RelayServer(fleet, child, new LineOutput(protocol, "the client"));
        int status = server.run(watch);
        ExitAction.systemExit().exit(status);
    }

    private int run(ClientWatch watch) {
        // Any other exit (a System.exit elsewhere) ends the tree as SIGTERM does.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            signalled.countDown();
            endAll();
            UnblockedStderr.drain(); // what the end logged, before the JVM halts
        }, "fleet-relay-shutdown"));
        child.served();
        takeSignal("TERM");
        takeSignal("INT");
        StopSignals.NAMES.forEach(this::takeSignal);
        daemon("fleet-relay-server-exit", () -> {
            int status = Uninterruptibly.await(child::waitFor);
            finish(new End("the wrapped server exited with status " + status, status));
        });
        // Registering waits out a registry another tool holds locked, for up to 30 s: a signal or the
        // child's exit meanwhile ends the tree at once, within the contract's bounds, rather than once
        // the row is written; the row, once it is, is marked stopped as on any end.
        daemon("fleet-relay-end-while-registering", () -> {
            Uninterruptibly.await(ended);
            if (registering) {
                LOG.info("{} while this member registers: ending the wrapped server's processes now, and marking the "
                        + "row stopped once it is written", end.get().why());
                Uninterruptibly.await(() -> {
                    endTree();
                    return null;
                });
            }
        });
        // The client is heard from the start, its lines held until the row is written: its end (stdin's EOF, or
        // its death) while this member registers ends the member within its bounds, as any end does.
        HeldUntilRegistered fromClient = new HeldUntilRegistered(PumpSink.of(relay::fromClient,
                relay::clientLineTooLong, relay::clientDrained));
        daemon("fleet-relay-from-client", endsOnError(() -> {
            new BoundedLines(stdin, "stdin", BoundedLines.MAX_LINE_BYTES).forEach(fromClient);
            fromClient.awaitHeldLinesPassed();
            finish(new End("stdin closed", 0));
        }));
        watch.start(reason -> finish(new End(reason, 0)));
        if (RegisteredUnlessEnded.register(fleet::register, ended)) { // the child has started, both pipes open
            registering = false;
            serve(fromClient);
        }
        Uninterruptibly.await(ended);
        endAll();
        return end.get().status();
    }

    /**
     * SIGTERM, SIGINT or another stop signal ends the member from here rather than through the JVM's own
     * handler or {@link StopSignals}' (which would run the shutdown hooks at once, with this signal's
     * status even during an EOF teardown): the first trigger keeps its status, and the tree gets SIGTERM
     * at once. A SIGHUP, SIGINT or SIGTERM ignored when the JVM started (a background job's SIGINT) stays
     * ignored; under {@code -Xrs} the JVM takes none of those three (the signal's default ends the
     * process, as SIGKILL would).
     */
    private void takeSignal(String name) {
        try {
            Signal.handle(new Signal(name), signal -> {
                signalled.countDown(); // first: a teardown this starts sends SIGTERM at once
                finish(new End("SIG" + signal.getName() + " received", 128 + signal.getNumber()));
            });
        } catch (IllegalArgumentException e) {
            LOG.debug("SIG{} keeps the JVM's handling: {}", name, e.getMessage());
        }
    }

    private void finish(End why) {
        if (end.compareAndSet(null, why)) {
            ended.countDown();
        }
    }

    /**
     * Once, whoever comes first (the main thread, or the shutdown hook, which waits for the main thread's
     * run to finish): the tree ended, the child's last lines and this member's own answers out, the row
     * marked stopped.
     */
    private synchronized void endAll() {
        if (over) {
            return;
        }
        over = true;
        End first = end.get();
        LOG.info("{}: ending the wrapped server ({}), marking this member stopped and exiting",
                first == null ? "stopping" : first.why(), child);
        // This member's own answers under way finish (bounded) beside the tree's teardown, not after it.
        Thread ownAnswers = daemon("fleet-relay-own-answers-end", relay::close);
        Uninterruptibly.await(() -> {
            endTree();
            if (childPump == null) {
                // Ended before the row was written: what the child wrote before it exited (a notification that says
                // why it failed to start) still reaches the client; no answer can be among it, as no request was
                // forwarded yet. The tree is gone, so the pipe's end comes at once.
                childPump = readChild();
            }
            childPump.join(DRAIN_MILLIS);
            // The last lines' flush is bounded too: a client that stopped reading would hold it forever.
            daemon("fleet-relay-last-lines", relay::childDrained).join(DRAIN_MILLIS);
            ownAnswers.join(DRAIN_MILLIS + OwnAnswers.FINISH_MILLIS);
            return null;
        });
        fleet.markStopped();
        try {
            stdin.close(); // a read still blocked in it would hold the JVM's exit up (ClosableStdin)
        } catch (IOException e) {
            LOG.debug("closing stdin: {}", e.toString());
        }
    }

    /**
     * Once the row is written: the child's lines go to the client, and the client's held lines to the child; unless
     * the end has begun (the shutdown hook's, say), which reads the child's last lines itself. Under the end's lock,
     * so the child's stdout never gets two readers.
     */
    private synchronized void serve(HeldUntilRegistered fromClient) {
        if (over) {
            return;
        }
        childPump = readChild();
        // On a thread of its own, as the client's lines always are: the held lines may fill a child that stopped
        // reading, and the main thread must still be free to carry out the end.
        daemon("fleet-relay-held-lines", endsOnError(fromClient::release));
    }

    /** The pump of the child's stdout, on a thread of its own: each line to the relay, until the pipe ends. */
    private Thread readChild() {
        return daemon("fleet-relay-from-server", endsOnError(() -> new BoundedLines(child.stdout(),
                "the wrapped server's stdout", BoundedLines.MAX_LINE_BYTES)
                .forEach(PumpSink.of(relay::fromChild, relay::childLineTooLong, relay::childDrained))));
    }

    /**
     * Ends the child's tree, once, on whichever thread asks first (the end, or an end that came while
     * this member was registering); a second caller waits for the first's teardown to finish.
     */
    private void endTree() throws InterruptedException {
        synchronized (treeEnding) {
            if (!treeEnded) {
                // The child's stdin is closed on a thread of its own: the client's pump may hold it, blocked
                // writing to a child that stopped reading, and the signals must not wait for that write (it
                // fails once the child is gone).
                child.end(() -> daemon("fleet-relay-close-stdin", toChild::close), signalled);
                treeEnded = true;
            }
        }
    }

    /**
     * A pump that ends the member if a failure (the heap exhausted, say, or a bug) ends the pump: a member that
     * no longer relays one direction must not linger as if it served. Status 70 and one line, a bug's, as the
     * CLI's (the member's end logs why).
     */
    private Runnable endsOnError(Runnable pump) {
        return () -> {
            try {
                pump.run();
            } catch (RuntimeException | Error e) {
                finish(new End("relaying failed (" + e + ")", 70));
            }
        };
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
