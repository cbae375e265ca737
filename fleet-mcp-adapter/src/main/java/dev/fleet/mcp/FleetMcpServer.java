package dev.fleet.mcp;

import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.ServerLifecycleService;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's MCP server on the official MCP Java SDK: two read-only tools over stdio (here) or
 * streamable HTTP ({@link StreamableHttpEndpoint}). It drives two in-ports: the assessment, and
 * the server's own lifecycle in the registry, which the CLI (the composition root) builds for the
 * transport it serves. This adapter never touches the registry's write port itself.
 */
public final class FleetMcpServer {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String ENDPOINT = "/mcp";
    public static final Duration DEFAULT_HEARTBEAT_PERIOD = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(FleetMcpServer.class);
    private static final String NAME = "fleet";
    private static final Duration CLOSE_SESSION_TIMEOUT = Duration.ofMillis(300);
    private static final String INSTRUCTIONS = "Fleet inventory for this repository's MCP servers. Before a "
            + "fleet-wide mutation, call " + AssessFleetInventoryTool.NAME + " with no arguments and proceed only "
            + "when mutation_gate_satisfied is true; " + RuntimeContextTool.NAME + " describes this server itself.";

    private final AssessFleetInventoryUseCase assess;
    private final ServerLifecycleUseCase lifecycle;
    private final Duration heartbeatPeriod;
    private final McpJsonMapper mapper = McpJson.mapper();
    private final VerdictFeed feed;

    /**
     * @param assess the assessment, built with {@code answered_by} = this server
     * @param lifecycle this server's registration, its identity naming the transport it will serve
     * @param heartbeatPeriod how often to heartbeat (default {@link #DEFAULT_HEARTBEAT_PERIOD})
     */
    public FleetMcpServer(AssessFleetInventoryUseCase assess, ServerLifecycleUseCase lifecycle,
            Duration heartbeatPeriod) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
        this.heartbeatPeriod = Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat period must be positive, got " + heartbeatPeriod);
        }
        this.feed = new VerdictFeed(assess,
                () -> lifecycle.awaitRegistrationAttempt(ServerLifecycleService.REGISTRATION_WAIT));
    }

    /** {@link #serveStdio(ExitAction)} with {@link ExitAction#systemExit()}. Never returns normally. */
    public void serveStdio() {
        serveStdio(ExitAction.systemExit());
    }

    /**
     * Serves MCP on this process's stdin/stdout and blocks until the client has gone (stdin EOF, or
     * the SDK's stdin loop ending), then marks the row stopped and calls {@code exit} with 0. On
     * SIGTERM/SIGINT, and on the other signals of {@link StopSignals}, a shutdown hook marks the row
     * stopped while the JVM exits. Either way the stop
     * takes at most {@code ServerLifecycleService.STOP_DEADLINE}, whatever the registry does.
     *
     * <p>Bad client input never ends the server: every stdin line passes {@link JsonRpcGate} first,
     * which answers what the SDK cannot take (see there), and {@link StdinLines} never holds more
     * than {@link StdinLines#MAX_LINE_BYTES} of a line.
     *
     * <p>stdout carries protocol bytes only: the SDK writes to the real stdout descriptor, and
     * {@code System.out} is pointed at stderr for the rest of the process's life, so a library that
     * prints (Liquibase does) cannot corrupt the stream.
     */
    public void serveStdio(ExitAction exit) {
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        serveStdio(System.in, protocol, exit);
    }

    private void serveStdio(InputStream stdin, OutputStream stdout, ExitAction exit) {
        Objects.requireNonNull(exit, "exit");
        requireTransport(Transport.STDIO);
        CountDownLatch clientGone = new CountDownLatch(1);
        // One stdout for the SDK's responses and the gate's replies, written a whole line at a time.
        ProtocolOutput protocol = new ProtocolOutput(stdout);
        JsonRpcGate gate = new JsonRpcGate(mapper, protocol);
        StdinLines lines = new StdinLines(stdin, gate, clientGone::countDown);
        StdioServerTransportProvider stdio =
                new StdioServerTransportProvider(mapper, lines, protocol, StdinLines.MAX_LINE_BYTES);
        McpSyncServer server =
                build(McpServer.sync(feed.wrap(new SessionEndSignallingProvider(stdio, clientGone::countDown))));
        // The hook goes in before registering: a SIGTERM during a slow first migration must still
        // leave the row stopped (stop() waits for the registration in progress, then marks it).
        Runtime.getRuntime().addShutdownHook(new Thread(lifecycle::stop, "fleet-mcp-shutdown"));
        StopSignals.install();
        // Building the server started the SDK's stdin loop: the transport is live, so register now.
        lifecycle.start(heartbeatPeriod);
        awaitUninterruptibly(clientGone);
        LOG.info("stdin closed: marking this server stopped and exiting");
        lifecycle.stop();
        closeQuietly(server);
        exit.exit(0);
    }

    /**
     * Binds the streamable HTTP endpoint {@value #ENDPOINT} on {@code host:port} (port 0: any free
     * port, see {@link RunningHttpServer#port()}), then registers. Returns at once; the caller owns
     * {@link RunningHttpServer#close()}. No shutdown hook is installed.
     *
     * @throws IllegalStateException when the address cannot be bound
     */
    public RunningHttpServer startHttp(String host, int port) {
        return startHttp(host, port, HttpLimits.DEFAULT);
    }

    /** {@link #startHttp(String, int)} within other limits (tests use short ones). */
    RunningHttpServer startHttp(String host, int port, HttpLimits limits) {
        return StreamableHttpEndpoint.start(this, host, port, false, limits);
    }

    /**
     * {@link #startHttp}, then blocks until SIGTERM/SIGINT (or another of {@link StopSignals}), whose
     * shutdown hook marks the row stopped and unbinds.
     *
     * @param onBound called once bound and registered, e.g. to tell the operator the port chosen for port 0
     * @throws IllegalStateException when the address cannot be bound
     */
    public void serveHttp(String host, int port, Consumer<RunningHttpServer> onBound) throws InterruptedException {
        Objects.requireNonNull(onBound, "onBound");
        RunningHttpServer running = StreamableHttpEndpoint.start(this, host, port, true, HttpLimits.DEFAULT);
        StopSignals.install();
        onBound.accept(running);
        running.awaitTermination();
    }

    /** The SDK server with both tools and the verdict resource, over {@code specification}'s transport. */
    McpSyncServer build(McpServer.SyncSpecification<?> specification) {
        feed.addTo(specification, mapper);
        return feed.attach(specification
                .serverInfo(NAME, version())
                .instructions(INSTRUCTIONS)
                .jsonSchemaValidator(McpJson.validator())
                .capabilities(VerdictFeed.capabilities())
                // The tools refuse arguments themselves, with a message that says why ("accepts no
                // evidence"); the SDK's generic schema check would answer first and say less.
                .validateToolInputs(false)
                .tools(AssessFleetInventoryTool.of(assess,
                                () -> lifecycle.awaitRegistrationAttempt(ServerLifecycleService.REGISTRATION_WAIT))
                                .specification(),
                        RuntimeContextTool.of(lifecycle, ServerLifecycleService.REGISTRATION_WAIT).specification())
                .build());
    }

    /** The verdict resource and its subscriptions, for a transport to wrap its provider with. */
    VerdictFeed feed() {
        return feed;
    }

    ServerLifecycleUseCase lifecycle() {
        return lifecycle;
    }

    Duration heartbeatPeriod() {
        return heartbeatPeriod;
    }

    McpJsonMapper mapper() {
        return mapper;
    }

    /** The identity the lifecycle registers must name the transport actually served. */
    void requireTransport(Transport served) {
        Transport registered = lifecycle.identity().transport();
        if (registered != served) {
            throw new IllegalStateException("this server registers as " + registered.code() + " but would serve "
                    + served.code());
        }
    }

    private static String version() {
        String version = FleetMcpServer.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the MCP sessions, waiting briefly: shutdown must stay within the 2 s a server has to exit. */
    static void closeQuietly(McpSyncServer server) {
        try {
            server.getAsyncServer().closeGracefully().block(CLOSE_SESSION_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.debug("closing the MCP server: {}", e.toString());
        }
    }
}
