package dev.fleet.mcp.http;

import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.modern.ModernFleetServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.net.URI;
import java.util.Objects;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A streamable HTTP server that is bound and registered; {@link #close()} marks its row stopped and unbinds. */
public final class RunningHttpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunningHttpServer.class);

    private final Server jetty;
    private final ServerConnector connector;
    private final McpSyncServer server;
    private final ModernFleetServer modern;
    private final FleetMcpServer fleet;
    private final boolean exposedBeyondLoopback;
    private final String announcedHost;
    private boolean closed;

    /**
     * @param connector the bound connector of the Jetty server to stop on close
     * @param exposedBeyondLoopback whether the bind address is anything but a loopback address
     * @param announcedHost where a client reaches it: 127.0.0.1 for a loopback or wildcard bind, else
     *     the numeric bound address
     */
    RunningHttpServer(ServerConnector connector, McpSyncServer server, ModernFleetServer modern,
            FleetMcpServer fleet, boolean exposedBeyondLoopback, String announcedHost) {
        this.connector = Objects.requireNonNull(connector, "connector");
        this.jetty = connector.getServer();
        this.server = Objects.requireNonNull(server, "server");
        this.modern = Objects.requireNonNull(modern, "modern");
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.exposedBeyondLoopback = exposedBeyondLoopback;
        this.announcedHost = Objects.requireNonNull(announcedHost, "announcedHost");
    }

    /** The port actually bound (useful when asked for port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /**
     * Whether the bind address reaches beyond this host: any address but a loopback one (the wildcard
     * {@code 0}/{@code 0.0.0.0}/{@code ::} included). The operator should be told.
     */
    public boolean exposedBeyondLoopback() {
        return exposedBeyondLoopback;
    }

    /**
     * The MCP endpoint a client can use, e.g. {@code http://127.0.0.1:43817/mcp}: the real bound port
     * (also for port 0), and a real address (never {@code 0}): 127.0.0.1 for a loopback or wildcard
     * bind, the numeric bound address otherwise. Recorded as the row's {@code endpoint}.
     */
    public URI endpoint() {
        return URI.create("http://" + announcedHost + ":" + port() + StreamableHttpEndpoint.ENDPOINT);
    }

    /** Blocks until the server has been closed (by the shutdown hook {@link StreamableHttpEndpoint#serve} installs). */
    void awaitTermination() throws InterruptedException {
        jetty.join();
    }

    /** Marks the row stopped first (the part that must not be skipped), then closes sessions and unbinds. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        fleet.markStopped();
        modern.close(); // open listens end with their graceful result before the listener goes
        FleetMcpServer.closeQuietly(server);
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP listener: {}", e.toString());
        }
    }
}
