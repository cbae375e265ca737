package dev.fleet.cli.option;

/**
 * What {@code assess --format} chooses: text for people (the default), json for programs, and the
 * two metrics expositions for Prometheus (docs/CONTRACT.md, "Metrics"). Only {@code assess} offers the last two, so it
 * is this verb's own option rather than {@link FormatOption}.
 */
public enum AssessFormat {
    TEXT,
    JSON,
    /** Prometheus text exposition 0.0.4. */
    PROMETHEUS,
    /** OpenMetrics 1.0.0. */
    OPENMETRICS;

    /** Whether the answer is metrics, written by the Prometheus client's classes (loaded for these two only). */
    public boolean metrics() {
        return this == PROMETHEUS || this == OPENMETRICS;
    }
}
