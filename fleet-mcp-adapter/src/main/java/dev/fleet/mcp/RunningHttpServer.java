package dev.fleet.mcp;

import dev.fleet.domain.lifecycle.RegistrationState;
import dev.fleet.domain.port.in.OwnRegistrationUseCase;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import io.modelcontextprotocol.server.McpSyncServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
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
    private final ServerLifecycleUseCase lifecycle;
    private final OwnRegistrationUseCase registration;
    private final String host;
    private final String announcedHost;
    private boolean closed;

    /**
     * @param host the bind address as given
     * @param announcedHost where a client reaches it: 127.0.0.1 for a loopback or wildcard bind, else
     *     the numeric bound address
     */
    RunningHttpServer(Server jetty, ServerConnector connector, McpSyncServer server, ServerLifecycleUseCase lifecycle,
            OwnRegistrationUseCase registration, String host, String announcedHost) {
        this.jetty = Objects.requireNonNull(jetty, "jetty");
        this.connector = Objects.requireNonNull(connector, "connector");
        this.server = Objects.requireNonNull(server, "server");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
        this.registration = Objects.requireNonNull(registration, "registration");
        this.host = Objects.requireNonNull(host, "host");
        this.announcedHost = Objects.requireNonNull(announcedHost, "announcedHost");
    }

    /** The port actually bound (useful when asked for port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    public String host() {
        return host;
    }

    /**
     * Whether the bind address reaches beyond this host: any address but a loopback one (the wildcard
     * {@code 0}/{@code 0.0.0.0}/{@code ::} included). The operator should be told.
     */
    public boolean exposedBeyondLoopback() {
        try {
            return !InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return true;
        }
    }

    /**
     * The MCP endpoint a client can use, e.g. {@code http://127.0.0.1:43817/mcp}: the real bound port
     * (also for port 0), and a real address (never {@code 0}): 127.0.0.1 for a loopback or wildcard
     * bind, the numeric bound address otherwise. Recorded as the row's {@code endpoint}.
     */
    public URI endpoint() {
        return URI.create("http://" + announcedHost + ":" + port() + FleetMcpServer.ENDPOINT);
    }

    public RegistrationState registration() {
        return registration.state();
    }

    /** Blocks until the server has been closed (for instance by the shutdown hook {@code serveHttp} installs). */
    public void awaitTermination() throws InterruptedException {
        jetty.join();
    }

    /** Marks the row stopped first (the part that must not be skipped), then closes sessions and unbinds. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        lifecycle.stop();
        FleetMcpServer.closeQuietly(server);
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP listener: {}", e.toString());
        }
    }
}
