package dev.fleet.metrics;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import java.util.Objects;

/**
 * A scrape of {@code GET /metrics}: a fresh read-only assessment through the in-port, as the
 * exposition the {@code Accept} header asks for. Nothing is cached, so every scrape is the fleet now.
 */
public final class MetricsScrape {

    private final AssessFleetInventoryUseCase assessment;
    private final BuildInfo build;

    public MetricsScrape(AssessFleetInventoryUseCase assessment, BuildInfo build) {
        this.assessment = Objects.requireNonNull(assessment, "assessment");
        this.build = Objects.requireNonNull(build, "build");
    }

    /** The fleet now, in the format {@code accept} asks for (see {@link MetricsFormat#forAccept}). */
    public Exposition answer(String accept) {
        return Exposition.of(assessment.assess(), build, MetricsFormat.forAccept(accept));
    }
}
