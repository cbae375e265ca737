package dev.fleet.dashboard;

import dev.fleet.http.BindAddress;
import dev.fleet.http.BoundedJetty;
import java.net.URI;
import java.util.Objects;
import org.eclipse.jetty.server.ServerConnector;

/** A dashboard that is bound and assessing; {@link #close()} ends every page's stream and unbinds. */
public final class RunningDashboard implements AutoCloseable {

    private final ServerConnector connector;
    private final VerdictStream stream;
    private final BindAddress bind;

    RunningDashboard(ServerConnector connector, VerdictStream stream, BindAddress bind) {
        this.connector = Objects.requireNonNull(connector, "connector");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.bind = Objects.requireNonNull(bind, "bind");
    }

    /** The port actually bound (useful when asked for port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** Where a person opens the page: 127.0.0.1 for a loopback or wildcard bind, else the bound address. */
    public URI page() {
        return URI.create("http://" + bind.announcedHost() + ":" + port() + "/");
    }

    /** Whether the page is reachable from other hosts, without authentication: the operator should be told. */
    public boolean exposedBeyondLoopback() {
        return bind.exposedBeyondLoopback();
    }

    /** Pages whose event stream is open now. */
    int openPages() {
        return stream.openPages();
    }

    /** Blocks until the server stops (the JVM ends it on SIGINT or SIGTERM). */
    public void awaitTermination() throws InterruptedException {
        connector.getServer().join();
    }

    @Override
    public void close() {
        stream.close();
        BoundedJetty.stopQuietly(connector.getServer());
    }
}
