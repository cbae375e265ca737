package dev.fleet.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * The two text expositions (docs/CONTRACT.md, "Metrics"), each written by the Prometheus Java client's own writer:
 * the text format 0.0.4 and OpenMetrics 1.0.0 (which ends with {@code # EOF}). Nothing here
 * formats or escapes a line by hand.
 */
public enum MetricsFormat {
    /** Prometheus text exposition 0.0.4: what node_exporter's textfile collector reads. */
    PROMETHEUS(() -> PrometheusTextFormatWriter.builder().setIncludeCreatedTimestamps(false).build()),
    /** OpenMetrics text 1.0.0. */
    OPENMETRICS(() -> OpenMetricsTextFormatWriter.builder().setCreatedTimestampsEnabled(false).build());

    private final Supplier<ExpositionFormatWriter> writer;

    MetricsFormat(Supplier<ExpositionFormatWriter> writer) {
        this.writer = writer;
    }

    /**
     * The format a scrape asks for by its {@code Accept} header: OpenMetrics when the header names
     * {@code application/openmetrics-text} (as the client library reads it), the 0.0.4 text otherwise,
     * a missing header included.
     */
    public static MetricsFormat forAccept(String accept) {
        return accept != null && OPENMETRICS.writer.get().accepts(accept) ? OPENMETRICS : PROMETHEUS;
    }

    /** The {@code Content-Type} of this exposition, version and charset included. */
    public String contentType() {
        return writer.get().getContentType();
    }

    /**
     * Writes {@code metrics} to {@code out}. Every name is a legacy Prometheus name, so no name
     * needs escaping; label values are escaped by the writer.
     */
    void write(MetricSnapshots metrics, OutputStream out) throws IOException {
        writer.get().write(out, metrics, EscapingScheme.UNDERSCORE_ESCAPING);
    }
}
