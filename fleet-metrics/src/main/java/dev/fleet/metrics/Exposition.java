package dev.fleet.metrics;

import dev.fleet.domain.Roster;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.verdict.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One verdict as metrics in one format: the bytes and the {@code Content-Type} they are served
 * with. Built whole in memory (a few kilobytes whatever the fleet: one series per roster member,
 * blocked code and anomaly kind), so a file or a response gets it in one write.
 */
public record Exposition(MetricsFormat format, byte[] body) {

    public Exposition {
        Objects.requireNonNull(format, "format");
        body = body.clone();
    }

    /**
     * {@code verdict}, classified against {@code roster}, in {@code format}, as answered by a build
     * described by {@code build}.
     */
    public static Exposition of(Verdict verdict, Roster roster, BuildInfo build, MetricsFormat format) {
        return of(verdict, roster, build, null, format);
    }

    /**
     * {@link #of(Verdict, Roster, BuildInfo, MetricsFormat)} with {@code fleet_host_strays} counted from
     * {@code host}, the host's report; without that family when {@code host} is null.
     */
    public static Exposition of(Verdict verdict, Roster roster, BuildInfo build, HostReport host,
            MetricsFormat format) {
        MetricSnapshots metrics = VerdictMetrics.of(verdict, roster, build);
        if (host != null) {
            List<MetricSnapshot> families = new ArrayList<>(metrics.stream().toList());
            families.add(HostStrayMetrics.of(host));
            metrics = new MetricSnapshots(families);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            format.write(metrics, out);
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array cannot fail to be written", e);
        }
        return new Exposition(format, out.toByteArray());
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    /** The {@code Content-Type} of {@link #body()}. */
    public String contentType() {
        return format.contentType();
    }
}
