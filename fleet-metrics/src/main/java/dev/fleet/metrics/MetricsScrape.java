package dev.fleet.metrics;

import dev.fleet.domain.Roster;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import java.util.Objects;

/**
 * A scrape of {@code GET /metrics}: a fresh read-only assessment through the in-port, as the
 * exposition the {@code Accept} header asks for. Nothing is cached, so every scrape is the fleet now.
 *
 * @param roster the roster {@code assessment} classifies against
 */
public record MetricsScrape(AssessFleetInventoryUseCase assessment, Roster roster, BuildInfo build) {

    public MetricsScrape {
        Objects.requireNonNull(assessment, "assessment");
        Objects.requireNonNull(roster, "roster");
        Objects.requireNonNull(build, "build");
    }

    /** The fleet now, in the format {@code accept} asks for (see {@link MetricsFormat#forAccept}). */
    public Exposition answer(String accept) {
        return Exposition.of(assessment.assess(), roster, build, MetricsFormat.forAccept(accept));
    }
}
