package dev.fleet.metrics;

import dev.fleet.domain.Roster;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A scrape of {@code GET /metrics}: a read-only assessment through the in-port, as the exposition the
 * {@code Accept} header asks for. Nothing is kept for later scrapes, so every scrape is the fleet now
 * (an in-port that shares assessments among callers at once gives one begun after the scrape came).
 *
 * @param roster the roster {@code assessment} classifies against
 * @param host a fresh look at the host's MCP servers ({@code fleet host}) for {@code fleet_host_strays}, or
 *     null for an exposition without that family; a look that fails omits the family alone ({@link HostLook})
 */
public record MetricsScrape(AssessFleetInventoryUseCase assessment, Roster roster, BuildInfo build,
        Supplier<HostReport> host) {

    public MetricsScrape {
        Objects.requireNonNull(assessment, "assessment");
        Objects.requireNonNull(roster, "roster");
        Objects.requireNonNull(build, "build");
    }

    /** A scrape of the fleet alone, without {@code fleet_host_strays}. */
    public MetricsScrape(AssessFleetInventoryUseCase assessment, Roster roster, BuildInfo build) {
        this(assessment, roster, build, null);
    }

    /**
     * The fleet now, in the format the request's {@code Accept} lines ask for (see {@link MetricsFormat#forAccept}):
     * every line is read, as a client may send one line per media range.
     */
    public Exposition answer(Enumeration<String> acceptLines) {
        List<String> lines = acceptLines == null ? List.of() : Collections.list(acceptLines);
        return Exposition.of(assessment.assess(), roster, build, HostLook.orOmitted(host, System.err),
                MetricsFormat.forAccept(String.join(",", lines)));
    }
}
