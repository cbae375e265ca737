package dev.fleet.http;

import java.net.BindException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * The one way an HTTP surface of {@code fleet} gets its Jetty: a server, not yet started, with its
 * one connector on {@code host:port}, within {@link ConnectionBounds} (connection cap, idle timeout,
 * a {@link HeaderDeadline} in front of the handler), and nothing in an answer that names Jetty.
 */
public final class BoundedJetty {

    private BoundedJetty() {
    }

    /**
     * @param handler what answers the requests (a servlet context)
     * @param errors what answers a request Jetty itself refuses (a bad request line, say)
     * @return the connector; {@link ServerConnector#getServer()} is the server to start and stop
     */
    public static ServerConnector connector(BindAddress bind, int port, ConnectionBounds bounds, Handler handler,
            Request.Handler errors) {
        return connector(new Server(), bind, port, bounds, handler, errors);
    }

    /** {@link #connector(BindAddress, int, ConnectionBounds, Handler, Request.Handler)} on {@code threads}. */
    public static ServerConnector connector(ThreadPool threads, BindAddress bind, int port, ConnectionBounds bounds,
            Handler handler, Request.Handler errors) {
        return connector(new Server(threads), bind, port, bounds, handler, errors);
    }

    private static ServerConnector connector(Server jetty, BindAddress bind, int port, ConnectionBounds bounds,
            Handler handler, Request.Handler errors) {
        // No graceful drain: a member must be gone within 2 s of SIGTERM, and a page reconnects by itself.
        jetty.setStopTimeout(0);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // no Server header: nothing names Jetty or its version
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(bind.host());
        connector.setPort(port);
        connector.setIdleTimeout(bounds.connectionIdle().toMillis());
        HeaderDeadline headerDeadline = new HeaderDeadline(bounds.headerDeadline(), jetty.getScheduler());
        connector.addBean(headerDeadline);
        jetty.addConnector(connector);
        jetty.addBean(new NetworkConnectionLimit(bounds.maxConnections(), connector));
        jetty.setErrorHandler(errors);
        headerDeadline.setHandler(handler);
        jetty.setHandler(headerDeadline);
        return connector;
    }

    /**
     * Why Jetty could not start, for the operator: a port in use (most often {@code holder} already
     * running) says how to pick another, rather than Jetty's {@code Failed to bind to /127.0.0.1:8766}; an
     * address no interface of this host has says so; any other failure to bind keeps the system's reason, which
     * Jetty's own message leaves out.
     */
    public static String whyNotStarted(Exception failure, int port, String holder) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException bind) {
                String why = String.valueOf(bind.getMessage());
                if (why.contains("in use")) {
                    return "port " + port + " is in use (" + holder + "?); pick another with --port, or --port 0 for "
                            + "any free one";
                }
                if (why.contains("assign requested address")) {
                    return "no network interface of this host has that address (" + why + "); pick one it has with "
                            + "--host, such as 127.0.0.1";
                }
                return failure.getMessage() + " (" + why + ")";
            }
        }
        return failure.getMessage();
    }

    /** Stops {@code jetty}, whatever it says: it is being abandoned. */
    public static void stopQuietly(Server jetty) {
        try {
            jetty.stop();
        } catch (Exception e) {
            // nothing to do: the server is going away either way
        }
    }
}
