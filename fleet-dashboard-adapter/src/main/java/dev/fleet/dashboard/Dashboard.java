package dev.fleet.dashboard;

import dev.fleet.domain.Roster;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.http.BindAddress;
import dev.fleet.http.BodyByStatusErrorHandler;
import dev.fleet.http.BoundedJetty;
import dev.fleet.http.ConnectionBounds;
import dev.fleet.metrics.MetricsScrape;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@code fleet dashboard}'s server: one page that shows the verdict live, on 127.0.0.1 unless the
 * operator asks for another address. Read-only like every assessment: it drives the assessment
 * in-port and nothing else, so it writes nothing to the registry and signals nothing.
 */
public final class Dashboard {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8766;

    /** Pages open at once; the 129th gets 503. Far more than the people who watch one fleet. */
    static final int MAX_PAGES = 128;
    /** Open pages plus their loads, with room to spare; more wait in the kernel's backlog. */
    static final ConnectionBounds BOUNDS = new ConnectionBounds(Duration.ofSeconds(10), 2 * MAX_PAGES + 16,
            Duration.ofSeconds(60));
    /**
     * Threads that answer requests, at most: a page waiting for its next event holds none (the
     * streams are asynchronous), so a few serve any number of pages, and a crowd of pages closing
     * at once cannot grow the pool past this.
     */
    static final int MAX_THREADS = 24;
    static final String THREAD_NAME = "fleet-dashboard";

    /** A comment to every page this often: well within the idle timeout, and how a closed page is found. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    private Dashboard() {
    }

    /**
     * Binds the dashboard on {@code host:port} (port 0: any free port) and starts assessing every
     * {@code interval}. Returns at once; the caller owns {@link RunningDashboard#close()}.
     *
     * @param metrics what {@code GET /metrics} answers (a fresh assessment per scrape)
     * @param roster the roster assessed: the page shows its members in the roster's order
     * @throws IllegalStateException when the address cannot be bound, in one line
     */
    public static RunningDashboard start(AssessFleetInventoryUseCase assessment, MetricsScrape metrics, Roster roster,
            String host, int port, Duration interval) {
        return start(assessment, metrics, roster, host, port, interval, KEEP_ALIVE);
    }

    static RunningDashboard start(AssessFleetInventoryUseCase assessment, MetricsScrape metrics, Roster roster,
            String host, int port, Duration interval, Duration keepAlive) {
        Objects.requireNonNull(assessment, "assessment");
        PageAsset rosterAsset = PageAsset.roster(Objects.requireNonNull(roster, "roster"));
        BindAddress bind = BindAddress.resolve(host, "the dashboard");
        VerdictStream stream = new VerdictStream(assessment::assess, interval, keepAlive, MAX_PAGES);
        ServletContextHandler context = new ServletContextHandler("/");
        BodyByStatusErrorHandler errors = new BodyByStatusErrorHandler("text/plain; charset=utf-8",
                status -> ("HTTP " + status + "\n").getBytes(StandardCharsets.UTF_8), DashboardServlet.METHODS);
        context.setErrorHandler(errors);
        DashboardServlet servlet = new DashboardServlet(assessment, metrics, stream, rosterAsset,
                new FirstVerdictPage(PageAsset.PAGE.body(), roster));
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true); // the event streams
        context.addServlet(holder, "/");
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4, (int) Duration.ofSeconds(10).toMillis());
        threads.setName(THREAD_NAME);
        ServerConnector connector = BoundedJetty.connector(threads, bind, port, BOUNDS, context, errors);
        Server jetty = connector.getServer();
        try {
            jetty.start();
            // The Origin and Host rule names the port really bound (port 0), so it is known only now.
            servlet.acceptOnly(bind.origins(connector.getLocalPort()));
        } catch (Exception e) {
            BoundedJetty.stopQuietly(jetty);
            stream.close();
            throw new IllegalStateException("cannot serve the dashboard on " + host + ":" + port + ": "
                    + BoundedJetty.whyNotStarted(e, port, "another dashboard"), e);
        }
        return new RunningDashboard(connector, stream, bind);
    }
}
