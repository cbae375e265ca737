package dev.fleet.mcp;

import dev.fleet.domain.Transport;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's tools over streamable HTTP: the SDK's servlet transport in an embedded Jetty, bound
 * to one address, with DNS-rebinding protection for a loopback server.
 */
final class StreamableHttpEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(StreamableHttpEndpoint.class);

    private StreamableHttpEndpoint() {
    }

    /**
     * Binds {@link FleetMcpServer#ENDPOINT} on {@code host:port}, then registers.
     *
     * @param shutdownHook whether SIGTERM/SIGINT should mark the row stopped and unbind
     * @throws IllegalStateException when the address cannot be bound
     */
    static RunningHttpServer start(FleetMcpServer fleet, String host, int port, boolean shutdownHook) {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        fleet.requireTransport(Transport.STREAMABLE_HTTP);
        ServerLifecycleUseCase lifecycle = fleet.lifecycle();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(fleet.mapper())
                .mcpEndpoint(FleetMcpServer.ENDPOINT)
                .httpHeaderValidator(headerValidator(host))
                .build();
        McpSyncServer server = fleet.build(McpServer.sync(transport));

        Server jetty = new Server();
        // No graceful drain: by the time Jetty stops, the row is marked stopped and the MCP sessions
        // are closed, and a server must be gone within 2 s of SIGTERM.
        jetty.setStopTimeout(0);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true); // responses stream as server-sent events
        context.addServlet(holder, FleetMcpServer.ENDPOINT);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            stopQuietly(jetty);
            FleetMcpServer.closeQuietly(server);
            throw new IllegalStateException("cannot serve MCP on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        RunningHttpServer running = new RunningHttpServer(jetty, connector, server, lifecycle, host);
        if (shutdownHook) {
            // Before registering, so a SIGTERM during a slow first migration still marks the row stopped.
            Runtime.getRuntime().addShutdownHook(new Thread(running::close, "fleet-mcp-shutdown"));
        }
        // The socket is bound: register now.
        lifecycle.start(fleet.heartbeatPeriod());
        LOG.info("serving MCP over streamable HTTP at {}", running.endpoint());
        return running;
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

    /** The host as a URI writes it: an IPv6 literal in brackets. */
    static String uriHost(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static void stopQuietly(Server jetty) {
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.debug("stopping Jetty: {}", e.toString());
        }
    }
}
