package dev.fleet.metrics;

import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            format.write(VerdictMetrics.of(verdict, roster, build), out);
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
