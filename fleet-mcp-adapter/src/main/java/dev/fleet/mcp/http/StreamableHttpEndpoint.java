package dev.fleet.mcp.http;

import dev.fleet.domain.Transport;
import dev.fleet.http.BindAddress;
import dev.fleet.http.BoundedJetty;
import dev.fleet.http.OriginRule;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.StopSignals;
import dev.fleet.mcp.UnblockedStderr;
import dev.fleet.mcp.modern.ModernFleetServer;
import dev.fleet.metrics.MetricsScrape;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's tools over streamable HTTP: the SDK's servlet transport in an embedded Jetty, bound
 * to one address, behind {@link JsonRpcHttpGuard} (every answer JSON-RPC and HTTP only, Origin and
 * Host checked), within {@link HttpLimits} (header deadline, connection cap, session expiry and cap, body size).
 * The one place a {@link RunningHttpServer} is built: {@link #start} and {@link #serve} both go through it.
 */
public final class StreamableHttpEndpoint {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String ENDPOINT = "/mcp";

    private static final Logger LOG = LoggerFactory.getLogger(StreamableHttpEndpoint.class);
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(1);
    /** How often the GET streams of sessions the SDK has forgotten are ended ({@link SessionStreams}). */
    private static final Duration STREAM_SWEEP = Duration.ofSeconds(2);

    private StreamableHttpEndpoint() {
    }

    /**
     * Binds the streamable HTTP endpoint {@value #ENDPOINT} on {@code host:port} (port 0: any free
     * port, see {@link RunningHttpServer#port()}), then registers. Returns at once; the caller owns
     * {@link RunningHttpServer#close()}. No shutdown hook is installed.
     *
     * @throws IllegalStateException when the address cannot be bound
     */
    public static RunningHttpServer start(FleetMcpServer fleet, String host, int port) {
        return start(fleet, null, host, port, HttpLimits.DEFAULT, false);
    }

    /**
     * {@link #start(FleetMcpServer, String, int)}, also answering {@code GET /metrics} with
     * {@code metrics} (a fresh assessment per scrape).
     */
    public static RunningHttpServer start(FleetMcpServer fleet, MetricsScrape metrics, String host, int port) {
        return start(fleet, Objects.requireNonNull(metrics, "metrics"), host, port, HttpLimits.DEFAULT, false);
    }

    /**
     * {@link #start}, then blocks until SIGTERM/SIGINT (or another of {@link StopSignals}), whose
     * shutdown hook marks the row stopped and unbinds.
     *
     * @param metrics what {@code GET /metrics} answers, or null for none (then that path is 404 like any other)
     * @param onBound called once bound and registered, e.g. to tell the operator the port chosen for port 0
     * @throws IllegalStateException when the address cannot be bound
     */
    public static void serve(FleetMcpServer fleet, MetricsScrape metrics, String host, int port,
            Consumer<RunningHttpServer> onBound) throws InterruptedException {
        Objects.requireNonNull(onBound, "onBound");
        // Whoever started the server may keep its stderr as a pipe and stop reading it, and the SDK logs what
        // clients send: a full pipe must hold up no request and no stop.
        UnblockedStderr.install();
        RunningHttpServer running = start(fleet, metrics, host, port, HttpLimits.DEFAULT, true);
        StopSignals.install();
        onBound.accept(running);
        running.awaitTermination();
    }

    /**
     * Binds {@value #ENDPOINT} (and {@code /metrics} when {@code metrics} is not null) on
     * {@code host:port} within {@code limits}, then registers with the endpoint it really listens on.
     *
     * @param shutdownHook whether SIGTERM/SIGINT should mark the row stopped and unbind
     * @throws IllegalStateException when the address cannot be bound
     */
    static RunningHttpServer start(FleetMcpServer fleet, MetricsScrape metrics, String host, int port,
            HttpLimits limits, boolean shutdownHook) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        fleet.requireTransport(Transport.STREAMABLE_HTTP);
        BindAddress bind = BindAddress.resolve(host, "MCP");
        HttpServletStreamableServerTransportProvider transport = sdkTransport(fleet, limits);
        SessionCap sessions = SessionCap.of(transport, limits.maxSessions());
        McpSyncServer server = fleet.build(McpServer.sync(fleet.feed().wrap(transport)));
        ModernFleetServer modern = ModernFleetServer.of(fleet);
        // The guard is built once the port is known (port 0): it stands in front of every path.
        GuardHolder guard = new GuardHolder(new SessionStreams(sessions::holds));
        ServerConnector connector = BoundedJetty.connector(bind, port, limits.connectionBounds(),
                context(transport, guard), JsonRpcHttpError.errorHandler());
        Server jetty = connector.getServer();
        try {
            jetty.start();
        } catch (Exception e) {
            BoundedJetty.stopQuietly(jetty);
            FleetMcpServer.closeQuietly(server);
            throw new IllegalStateException("cannot serve MCP on " + host + ":" + port + ": "
                    + BoundedJetty.whyNotStarted(e, port, "another fleet serve"), e);
        }
        guard.endOrphanedStreamsEvery(connector.getScheduler(), STREAM_SWEEP);
        OriginRule origins = bind.origins(connector.getLocalPort());
        guard.set(new JsonRpcHttpGuard(origins, limits, fleet.mapper(), sessions,
                        modernTransport(modern, limits), transport.protocolVersions()),
                metrics == null ? null : new MetricsRoute(metrics, origins));
        RunningHttpServer running = new RunningHttpServer(connector, server, modern, fleet,
                bind.exposedBeyondLoopback(),
                bind.announcedHost());
        if (shutdownHook) {
            // Before registering, so a SIGTERM during a slow first migration still marks the row stopped.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                running.close();
                UnblockedStderr.drain(); // what the stop logged, when stderr is queued, before the JVM halts
            }, "fleet-mcp-shutdown"));
        }
        // The socket is bound: register now, with the endpoint a client can reach.
        fleet.register(running.endpoint().toString());
        LOG.info("serving MCP over streamable HTTP at {}", running.endpoint());
        return running;
    }

    /** The SDK's servlet transport at {@value #ENDPOINT}, within the body and session-idle limits. */
    private static HttpServletStreamableServerTransportProvider sdkTransport(FleetMcpServer fleet, HttpLimits limits) {
        return HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(fleet.mapper())
                .mcpEndpoint(ENDPOINT)
                .maxRequestSize(limits.maxBodyBytes())
                // Idle sessions (no request, no open stream) are closed after one to two periods.
                .sessionSweepInterval(limits.sessionIdle())
                // A GET stream is held open past Jetty's idle timeout, and a client that vanished is noticed
                // only by a write: a ping every half idle period releases a stream whose write fails or
                // whose ping goes unanswered, so dead streams cannot keep the connection cap full for good.
                .keepAliveInterval(limits.connectionIdle().dividedBy(2))
                .build();
    }

    /**
     * The SDK's servlet of the 2026-07-28 era, which the guard hands the POSTs that claim it: not
     * mapped to a path of its own, so nothing reaches it but through the guard's checks, whose Origin
     * and Host rule replaces the SDK's own.
     */
    private static HttpServletMcpTransport modernTransport(ModernFleetServer modern, HttpLimits limits) {
        return HttpServletMcpTransport.builder(modern.requests())
                .jsonMapper(modern.mapper())
                .endpoint(ENDPOINT)
                .maxRequestSize(limits.maxBodyBytes())
                .httpHeaderValidator(ServerHttpHeaderValidator.NOOP)
                // A listen ends when its client closes the stream, which the server learns only by writing
                // to it: a keep-alive each second ends the background assessment within seconds of the last
                // listener leaving (the SDK's default, 30 s, would keep assessing for half a minute).
                .keepAliveInterval(KEEP_ALIVE)
                .build();
    }

    /** The servlet context: the SDK's servlet at {@value #ENDPOINT}, the guard in front of every path. */
    private static ServletContextHandler context(HttpServletStreamableServerTransportProvider transport,
            Filter guard) {
        ServletContextHandler context = new ServletContextHandler("/");
        context.setErrorHandler(JsonRpcHttpError.errorHandler());
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true); // responses stream as server-sent events
        context.addServlet(holder, ENDPOINT);
        FilterHolder filter = new FilterHolder(guard);
        filter.setAsyncSupported(true);
        context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
        return context;
    }

    /**
     * The guard, set once the bound port is known; until then (never, in practice) every request is
     * refused. {@code /metrics}, when served, is answered here, beside the JSON-RPC guard.
     */
    private static final class GuardHolder implements Filter {

        private final SessionStreams streams;
        private volatile JsonRpcHttpGuard guard;
        private volatile MetricsRoute metrics;

        GuardHolder(SessionStreams streams) {
            this.streams = streams;
        }

        /** Ends the streams of forgotten sessions every {@code period}, on Jetty's scheduler, until it stops. */
        void endOrphanedStreamsEvery(Scheduler scheduler, Duration period) {
            try {
                scheduler.schedule(() -> {
                    streams.endOrphans();
                    endOrphanedStreamsEvery(scheduler, period);
                }, period.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RuntimeException stopped) {
                // the server is stopping: its connections go with it
            }
        }

        void set(JsonRpcHttpGuard value, MetricsRoute metricsRoute) {
            metrics = metricsRoute;
            guard = value;
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            JsonRpcHttpGuard current = guard;
            if (current == null) {
                JsonRpcHttpError.forStatus(503).write((HttpServletResponse) response, null);
                return;
            }
            MetricsRoute route = metrics;
            if (route != null && MetricsRoute.handles((HttpServletRequest) request)) {
                route.answer((HttpServletRequest) request, (HttpServletResponse) response);
                return;
            }
            current.doFilter(request, response, chain);
            HttpServletRequest http = (HttpServletRequest) request;
            String session = http.getHeader("Mcp-Session-Id");
            if ("GET".equals(http.getMethod())) {
                streams.answered(http, session);
            } else if ("DELETE".equals(http.getMethod())) {
                streams.endOrphans(); // a stream that raced its session's end
            }
        }
    }
}
