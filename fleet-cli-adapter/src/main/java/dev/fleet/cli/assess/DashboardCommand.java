package dev.fleet.cli.assess;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.metrics.MetricsAnswer;
import dev.fleet.cli.option.IntervalOption;
import dev.fleet.cli.text.BeyondLoopback;
import dev.fleet.dashboard.Dashboard;
import dev.fleet.dashboard.RunningDashboard;
import dev.fleet.domain.Lease;
import dev.fleet.domain.Roster;
import dev.fleet.domain.assessment.SharedAssessments;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.metrics.MetricsScrape;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet dashboard}: the verdict as a live page in a browser. Read-only like {@code watch},
 * whose machinery feeds it: the same ports, nothing written, nothing signalled. It serves until
 * SIGINT or SIGTERM.
 */
@Command(name = DashboardCommand.NAME,
        description = {"Serve a live page of the fleet: the gate, a card per expected member, every anomaly with "
                + "its action, orphans, remote instances, the digest and a timeline of its changes.",
            "The page updates itself (server-sent events) each time the digest changes. Read-only: it writes and "
                    + "signals nothing.",
            "Also served: GET /verdict, the JSON of assess --format json now; GET /metrics, the metrics."})
public final class DashboardCommand extends AssessingVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "dashboard";

    @Spec
    private CommandSpec spec;

    @Mixin
    private IntervalOption interval;

    @Option(names = "--host", defaultValue = Dashboard.DEFAULT_HOST, paramLabel = "ADDRESS",
            description = "Bind address (default: ${DEFAULT-VALUE}); another one makes the page reachable from "
                    + "other hosts, without authentication.")
    private String host;

    @Option(names = "--port", defaultValue = "" + Dashboard.DEFAULT_PORT, paramLabel = "N",
            description = "Port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    private int port;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65_535) {
            throw new ConfigurationException("--port must be 0-65535, got " + port);
        }
        Roster fleet = roster.roster();
        // The page's stream, /verdict and /metrics share what they assess at once: a burst of requests
        // costs a few assessments, one at a time, each begun after the request it answers.
        AssessFleetInventoryUseCase assessment = new SharedAssessments(assessment(fleet, Lease.DEFAULT));
        MetricsScrape metrics = new MetricsScrape(assessment, fleet, MetricsAnswer.buildInfo(), MetricsAnswer.host(fleet));
        RunningDashboard running;
        try {
            running = Dashboard.start(assessment, metrics, fleet, host, port, interval.interval());
        } catch (IllegalStateException e) {
            throw new ConfigurationException(e.getMessage()); // an address in use, a host that does not resolve
        }
        PrintWriter err = spec.commandLine().getErr();
        if (running.exposedBeyondLoopback()) {
            err.println(BeyondLoopback.warning(host, "the page"));
        }
        err.printf("fleet: dashboard of %s (roster: %s) at %s; Ctrl-C stops it%n", registry.shown(),
                roster.source(), running.page());
        err.flush();
        PrintWriter out = spec.commandLine().getOut();
        out.println(running.page());
        if (out.checkError()) {
            // The address is this verb's answer: unwritten (a full disk, a closed stdout), nobody is told of
            // the page, so it is not served; FleetCli says why in one line, exit 74.
            running.close();
            return ExitCodes.OUTPUT_FAILED;
        }
        running.awaitTermination();
        return ExitCodes.OK;
    }
}
