package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.out.Clock;
import dev.fleet.domain.port.out.RegistryWriter;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's MCP server (SPEC §7) on the official MCP Java SDK: two read-only tools, served over
 * stdio or streamable HTTP, with the server's own registration kept in the runtime registry.
 *
 * <p>The CLI is the composition root: it builds the use case (with {@code answered_by} = this
 * server), the identity, and the registry writer, then calls {@link #serveStdio()} or
 * {@link #serveHttp(String, int, java.util.function.Consumer)}.
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
    private final ServerIdentity identity;
    private final RegistryWriter registry;
    private final Clock clock;
    private final Duration heartbeatPeriod;
    private final Supplier<Instant> observedStart;
    private final McpJsonMapper mapper = McpJson.mapper();

    /**
     * @param assess the assessment, built by the CLI with {@code answered_by} = {@link ServerIdentity#answeredBy()}
     * @param identity what this server says about itself (its transport is overridden by the one served)
     * @param registry the registry this server registers in
     * @param clock the time registrations and heartbeats are stamped with
     * @param heartbeatPeriod how often to heartbeat (SPEC default {@link #DEFAULT_HEARTBEAT_PERIOD})
     */
    public FleetMcpServer(AssessFleetInventoryUseCase assess, ServerIdentity identity, RegistryWriter registry,
            Clock clock, Duration heartbeatPeriod) {
        this(assess, identity, registry, clock, heartbeatPeriod, () -> null);
    }

    /**
     * @param observedStart this process's start as observers see it now (null when unknown); when it
     *     moves by more than a second (a wall-clock step), the server registers again
     */
    public FleetMcpServer(AssessFleetInventoryUseCase assess, ServerIdentity identity, RegistryWriter registry,
            Clock clock, Duration heartbeatPeriod, Supplier<Instant> observedStart) {
        this.observedStart = Objects.requireNonNull(observedStart, "observedStart");
        this.assess = Objects.requireNonNull(assess, "assess");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.heartbeatPeriod = Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat period must be positive, got " + heartbeatPeriod);
        }
    }

    /** {@link #serveStdio(ExitAction)} with {@link ExitAction#systemExit()}. Never returns normally. */
    public void serveStdio() {
        serveStdio(ExitAction.systemExit());
    }

    /**
     * Serves MCP on this process's stdin/stdout and blocks until the client has gone (stdin EOF, or
     * the SDK's stdin loop ending), then marks the row stopped and calls {@code exit} with 0. On
     * SIGTERM/SIGINT a shutdown hook marks the row stopped while the JVM exits. Either way the stop
     * takes at most {@link ServerLifecycle#STOP_DEADLINE}, whatever the registry does.
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
        ServerLifecycle lifecycle = new ServerLifecycle(identity.withTransport(Transport.STDIO), registry, clock,
                observedStart);
        CountDownLatch clientGone = new CountDownLatch(1);
        // One stdout for the SDK's responses and the gate's replies, written a whole line at a time.
        ProtocolOutput protocol = new ProtocolOutput(stdout);
        JsonRpcGate gate = new JsonRpcGate(mapper, protocol);
        StdinLines lines = new StdinLines(stdin, gate, clientGone::countDown);
        StdioServerTransportProvider stdio =
                new StdioServerTransportProvider(mapper, lines, protocol, StdinLines.MAX_LINE_BYTES);
        McpSyncServer server = build(McpServer.sync(new SessionEndSignallingProvider(stdio, clientGone::countDown)),
                lifecycle);
        // The hook goes in before registering: a SIGTERM during a slow first migration must still
        // leave the row stopped (stop() waits for the registration in progress, then marks it).
        Runtime.getRuntime().addShutdownHook(new Thread(lifecycle::stop, "fleet-mcp-shutdown"));
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
        return startHttp(host, port, false);
    }

    private RunningHttpServer startHttp(String host, int port, boolean shutdownHook) {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        ServerLifecycle lifecycle =
                new ServerLifecycle(identity.withTransport(Transport.STREAMABLE_HTTP), registry, clock,
                        observedStart);
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(mapper)
                .mcpEndpoint(ENDPOINT)
                .httpHeaderValidator(headerValidator(host))
                .build();
        McpSyncServer server = build(McpServer.sync(transport), lifecycle);

        Server jetty = new Server();
        // No graceful drain: by the time Jetty stops, the row is marked stopped and the MCP sessions
        // are closed, and SPEC §7 wants the process gone within 2 s of SIGTERM.
        jetty.setStopTimeout(0);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true); // responses stream as server-sent events
        context.addServlet(holder, ENDPOINT);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            stopQuietly(jetty);
            closeQuietly(server);
            throw new IllegalStateException("cannot serve MCP on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        RunningHttpServer running = new RunningHttpServer(jetty, connector, server, lifecycle, host);
        if (shutdownHook) {
            // Before registering, so a SIGTERM during a slow first migration still marks the row stopped.
            Runtime.getRuntime().addShutdownHook(new Thread(running::close, "fleet-mcp-shutdown"));
        }
        // The socket is bound: register now.
        lifecycle.start(heartbeatPeriod);
        LOG.info("serving MCP over streamable HTTP at {}", running.endpoint());
        return running;
    }

    /**
     * {@link #startHttp}, then blocks until SIGTERM/SIGINT, whose shutdown hook marks the row stopped
     * and unbinds.
     *
     * @param onBound called once bound and registered, e.g. to tell the operator the port chosen for port 0
     * @throws IllegalStateException when the address cannot be bound
     */
    public void serveHttp(String host, int port, Consumer<RunningHttpServer> onBound) throws InterruptedException {
        Objects.requireNonNull(onBound, "onBound");
        RunningHttpServer running = startHttp(host, port, true);
        onBound.accept(running);
        running.awaitTermination();
    }

    private McpSyncServer build(McpServer.SyncSpecification<?> specification, ServerLifecycle lifecycle) {
        return specification
                .serverInfo(NAME, version())
                .instructions(INSTRUCTIONS)
                .jsonMapper(mapper)
                .jsonSchemaValidator(McpJson.validator())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // The tools refuse arguments themselves, with a message that says why ("accepts no
                // evidence"); the SDK's generic schema check would answer first and say less.
                .validateToolInputs(false)
                .tools(AssessFleetInventoryTool.of(assess,
                                () -> lifecycle.awaitRegistrationAttempt(ServerLifecycle.REGISTRATION_WAIT))
                                .specification(),
                        RuntimeContextTool.of(lifecycle, ServerLifecycle.REGISTRATION_WAIT).specification())
                .build();
    }

    /**
     * DNS-rebinding protection for a loopback server: only loopback Host names and browser Origins.
     * A server deliberately bound elsewhere accepts any Host but still only same-host Origins.
     */
    private static DefaultServerTransportSecurityValidator headerValidator(String host) {
        String literal = uriHost(host);
        List<String> loopback = List.of("127.0.0.1", "localhost", "[::1]");
        DefaultServerTransportSecurityValidator.Builder builder = DefaultServerTransportSecurityValidator.builder();
        for (String name : loopback) {
            builder.allowedOrigin("http://" + name + ":*");
        }
        builder.allowedOrigin("http://" + literal + ":*");
        if (isLoopback(host)) {
            for (String name : loopback) {
                builder.allowedHost(name + ":*");
            }
            builder.allowedHost(literal + ":*");
        }
        return builder.build();
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
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

    /** The host as a URI writes it: an IPv6 literal in brackets. */
    static String uriHost(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** Closes the MCP sessions, waiting briefly: shutdown must stay within SPEC's 2 s. */
    static void closeQuietly(McpSyncServer server) {
        try {
            server.getAsyncServer().closeGracefully().block(CLOSE_SESSION_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.debug("closing the MCP server: {}", e.toString());
        }
    }

    private static void stopQuietly(Server jetty) {
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.debug("stopping Jetty: {}", e.toString());
        }
    }
}
