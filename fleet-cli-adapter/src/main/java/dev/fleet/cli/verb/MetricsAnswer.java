package dev.fleet.cli.verb;

import dev.fleet.cli.option.AssessFormat;
import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.metrics.BuildInfo;
import dev.fleet.metrics.Exposition;
import dev.fleet.metrics.MetricsFormat;

/**
 * {@code assess --format prometheus|openmetrics}: the verdict as an exposition, reached only for
 * these formats.
 */
final class MetricsAnswer {

    private MetricsAnswer() {
    }

    /** The exposition's bytes (UTF-8) of {@code verdict}, classified against {@code roster}, in {@code format}. */
    static byte[] of(Verdict verdict, Roster roster, AssessFormat format) {
        MetricsFormat exposition = format == AssessFormat.OPENMETRICS ? MetricsFormat.OPENMETRICS
                : MetricsFormat.PROMETHEUS;
        return Exposition.of(verdict, roster, buildInfo(), exposition).body();
    }

    /** What {@code fleet_build_info} names: this jar's version and commit. */
    static BuildInfo buildInfo() {
        BuildProperties build = BuildProperties.read();
        return new BuildInfo(build.version(), build.commit());
    }
}
