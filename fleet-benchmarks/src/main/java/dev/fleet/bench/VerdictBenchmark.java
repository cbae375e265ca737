package dev.fleet.bench;

import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The verdict for a large snapshot ({@link SyntheticFleet}): classification, the digest (inside the
 * classifier) and the canonical JSON document, which is what {@code fleet assess --format json}
 * and the MCP tool's text content print. Sample time, so JMH reports the median (p0.50).
 *
 * <p>Memory: run with {@code -prof gc}; {@code gc.alloc.rate.norm} is the bytes allocated per verdict.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class VerdictBenchmark {

    @Param({"10000", "100000"})
    int size;

    Snapshot snapshot;

    @Setup(Level.Trial)
    public void setUp() {
        snapshot = SyntheticFleet.snapshot(size);
    }

    /**
     * Classification, digest and the canonical document: the whole answer from a snapshot in hand,
     * as {@code fleet assess --format json} makes it (the digest, then the JSON: two walks of the document).
     */
    @Benchmark
    public String verdictDocument() {
        return VerdictDocument.canonicalJson(FleetClassifier.classify(snapshot));
    }
}
