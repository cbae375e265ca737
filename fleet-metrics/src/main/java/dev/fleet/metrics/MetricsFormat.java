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
     * weighs media ranges (RFC 9110, 12.5.1: each type takes the weight of the most specific range that names it,
     * {@code application/openmetrics-text} before {@code application/*} before {@code *}{@code /*}, and so
     * {@code text/plain} for the 0.0.4 text): OpenMetrics when it weighs more than nothing and more than the text,
     * or as much where the header names it (not through a wildcard); the 0.0.4 text otherwise, a missing header
     * included. The client library's own check found the type's name
     * anywhere in the header, so a scraper that refused OpenMetrics ({@code q=0}) was sent it.
     */
    public static MetricsFormat forAccept(String accept) {
        Weight openMetrics = new Weight("application", "openmetrics-text");
        Weight text = new Weight("text", "plain");
        for (String range : accept == null ? new String[0] : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].strip().toLowerCase(Locale.ROOT);
            double weight = weight(parts);
            openMetrics.consider(type, weight);
            text.consider(type, weight);
        }
        boolean preferred = openMetrics.weight > text.weight
                || openMetrics.weight == text.weight && openMetrics.specificity == Weight.NAMED;
        return openMetrics.weight > 0 && preferred ? OPENMETRICS : PROMETHEUS;
    }

    /** One media type's weight in an {@code Accept} header: that of the most specific range naming it, 0 if none. */
    private static final class Weight {
        static final int NAMED = 3;
        private final String type;
        private final String subtype;
        private int specificity;
        private double weight;

        Weight(String type, String subtype) {
            this.type = type;
            this.subtype = subtype;
        }

        void consider(String range, double q) {
            int specific = range.equals(type + "/" + subtype) ? NAMED : range.equals(type + "/*") ? 2
                    : range.equals("*/*") ? 1 : 0;
            if (specific > specificity || specific > 0 && specific == specificity && q > weight) {
                specificity = specific;
                weight = q;
            }
        }
    }

    /** A media range's weight, its {@code q} parameter between 0 and 1: 1 without one, and 1 for one that does not parse. */
    private static double weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("q=")) {
                try {
                    double q = Double.parseDouble(parameter.substring(2).strip());
                    return Double.isNaN(q) ? 1 : Math.max(0, Math.min(1, q));
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
