package dev.fleet.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
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
     * The format a scrape asks for by its {@code Accept} header (every line of it, joined by commas), weighed as HTTP
     * weighs media ranges (RFC 9110, 12.5.1): OpenMetrics when {@code application/openmetrics-text} weighs more than
     * nothing and no less than any range the 0.0.4 text meets ({@code text/plain}, {@code text/*}, {@code *}{@code /*});
     * the 0.0.4 text otherwise, a missing header included. The client library's own check found the type's name
     * anywhere in the header, so a scraper that refused OpenMetrics ({@code q=0}) was sent it.
     */
    public static MetricsFormat forAccept(String accept) {
        double openMetrics = 0;
        double text = 0;
        for (String range : accept == null ? new String[0] : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].strip().toLowerCase(Locale.ROOT);
            double weight = weight(parts);
            if (type.equals("application/openmetrics-text")) {
                openMetrics = Math.max(openMetrics, weight);
            } else if (type.equals("text/plain") || type.equals("text/*") || type.equals("*/*")) {
                text = Math.max(text, weight);
            }
        }
        return openMetrics > 0 && openMetrics >= text ? OPENMETRICS : PROMETHEUS;
    }

    /** A media range's weight, its {@code q} parameter: 1 without one, and 1 for one that does not parse. */
    private static double weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("q=")) {
                try {
                    double q = Double.parseDouble(parameter.substring(2).strip());
                    return Double.isNaN(q) ? 1 : q;
                } catch (NumberFormatException unweighted) {
                    return 1;
                }
            }
        }
        return 1;
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
