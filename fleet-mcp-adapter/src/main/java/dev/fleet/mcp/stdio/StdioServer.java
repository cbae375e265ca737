package dev.fleet.mcp.stdio;

import dev.fleet.domain.Transport;
import dev.fleet.domain.Uninterruptibly;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.StopSignals;
import dev.fleet.mcp.UnblockedStderr;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.modern.ModernFleetServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The fleet's MCP server over this process's stdin and stdout. */
public final class StdioServer {

    private static final Logger LOG = LoggerFactory.getLogger(StdioServer.class);
    /** How long an exit waits for the answers still under way and open listens' final results, within its 2 s. */
    private static final Duration ANSWERS_WRITTEN = Duration.ofMillis(500);
    /** The end of that wait, kept for answering with an error each request whose answer was not ready by then. */
    private static final Duration UNANSWERED_REFUSED = Duration.ofMillis(100);
    /** What a request still unanswered at the stop gets, so that its client never waits for ever. */
    private static final JsonRpcError STOPPED = new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: "
            + "this server stopped (its client closed stdin or went away) before this answer was ready");

    private StdioServer() {
    }

    /** {@link #serve(FleetMcpServer, ExitAction)} with {@link ExitAction#systemExit()}. Never returns normally. */
    public static void serve(FleetMcpServer fleet) {
        serve(fleet, ExitAction.systemExit());
    }

    /** {@link #serve(FleetMcpServer, ExitAction, ClientWatch)} without a watch: only stdin EOF ends it. */
    public static void serve(FleetMcpServer fleet, ExitAction exit) {
        serve(fleet, exit, ClientWatch.NONE);
    }

    /**
     * Serves MCP on this process's stdin/stdout and blocks until the client has gone (stdin's end, or
     * {@code watch} saying so), then marks the row stopped and calls
     * {@code exit} with 0, having logged one line that says why. On
     * SIGTERM/SIGINT, and on the other signals of {@link StopSignals}, a shutdown hook marks the row
     * stopped while the JVM exits. Either way the stop takes at most
     * {@link ServerLifecycleUseCase#STOP_DEADLINE}, whatever the registry does.
     *
     * <p>Bad client input never ends the server: every stdin line is read by {@link BoundedLines},
     * which never holds more than {@link BoundedLines#MAX_LINE_BYTES} of a line, and parsed once by
     * {@link JsonRpcGate}, which answers what the SDK cannot take (see there) and hands the rest,
     * already parsed, to the SDK's session ({@link StdioTransport}).
     *
     * <p>stdout carries protocol bytes only: {@link LineOutput} writes to the real stdout descriptor, and
     * {@code System.out} is pointed at stderr for the rest of the process's life, so a library that
     * prints (Liquibase does) cannot corrupt the stream.
     */
    public static void serve(FleetMcpServer fleet, ExitAction exit, ClientWatch watch) {
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        UnblockedStderr.install(); // the client owns stderr: a client that never reads it must not stop the server
        System.setOut(System.err);
        InputStream stdin = InheritedStdin.closedAtStart("server") ? InputStream.nullInputStream() : System.in;
        serve(fleet, stdin, protocol, exit, watch);
    }

    private static void serve(FleetMcpServer fleet, InputStream stdin, OutputStream stdout, ExitAction exit,
            ClientWatch watch) {
        Objects.requireNonNull(exit, "exit");
        Objects.requireNonNull(watch, "watch");
        fleet.requireTransport(Transport.STDIO);
        CountDownLatch clientGone = new CountDownLatch(1);
        // Whichever sign comes first says why the server stops; the other, later, changes nothing.
        AtomicReference<String> why = new AtomicReference<>();
        Consumer<String> gone = reason -> {
            why.compareAndSet(null, reason);
            clientGone.countDown();
        };
        // One stdout for the SDK's answers and the gate's replies, written a whole line at a time.
        LineOutput protocol = new LineOutput(stdout, "the client");
        // Both eras on one stdin: the gate sends each request that claims 2026-07-28 to the modern server.
        ModernFleetServer modern = ModernFleetServer.of(fleet);
        ModernStdio modernStdio = new ModernStdio(modern, protocol);
        StdioTransport stdio = new StdioTransport(fleet.mapper(), stdin, protocol, () -> gone.accept("stdin closed"),
                BoundedLines.MAX_LINE_BYTES, modernStdio);
        McpSyncServer server = fleet.build(McpServer.sync(fleet.feed().wrap(stdio)));
        // The hook goes in before registering: a SIGTERM during a slow first migration must still
        // leave the row stopped (the stop waits for the registration in progress, then marks it).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            fleet.markStopped();
            UnblockedStderr.drain(); // what the stop logged, before the JVM halts
        }, "fleet-mcp-shutdown"));
        StopSignals.install();
        // The server's session exists: read stdin into it. The transport is live, so register now, on a
        // thread of its own: another tool holding the registry locked keeps the registration retrying for
        // up to 30 s, and EOF meanwhile must still stop the server within 2 s (the stop waits for the
        // registration at most its own deadline). The client is watched once the attempt is over: a
        // server whose client was gone at its start registers, then stops (the contract, Orphans).
        stdio.start();
        Thread registering = new Thread(() -> {
            fleet.register();
            watch.start(gone);
        }, "fleet-register");
        registering.setDaemon(true);
        registering.start();
        Uninterruptibly.await(clientGone);
        LOG.info("{}: marking this server stopped and exiting", why.get());
        fleet.markStopped();
        modern.close();
        // What was asked before the end is answered before the exit: each open listen's final result, and
        // every request's answer still under way (an assessment), in either era; one not ready in time is
        // answered with an error, so a client that closed stdin right after asking never waits for ever.
        long deadline = System.nanoTime() + ANSWERS_WRITTEN.toNanos();
        long answersDue = deadline - UNANSWERED_REFUSED.toNanos();
        modernStdio.awaitListensAnswered(answersDue);
        protocol.awaitAnswersWritten(answersDue);
        protocol.endAnswers(STOPPED::bytes, deadline);
        FleetMcpServer.closeQuietly(server);
        exit.exit(0);
    }
}
