package dev.fleet.bench;

import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The same work as {@link VerdictBenchmark}, timed both ways: wall time, and the CPU time of the
 * measuring thread. On a machine shared with other builds the wall time says as much about the
 * neighbours as about the code; the CPU time (plus GC, reported apart by JMH's {@code -prof gc})
 * is what this code costs. Arguments: [size] [warm-ups] [measured runs].
 */
public final class VerdictCpuTime {

    private VerdictCpuTime() {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 31;
        Snapshot snapshot = SyntheticFleet.snapshot(size);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long chars = 0;
        for (int i = 0; i < warmups; i++) {
            chars = VerdictDocument.canonicalJson(FleetClassifier.classify(snapshot)).length();
        }
        long[] wall = new long[runs];
        long[] cpu = new long[runs];
        for (int i = 0; i < runs; i++) {
            long cpuStart = threads.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            chars += VerdictDocument.canonicalJson(FleetClassifier.classify(snapshot)).length() == 0 ? 1 : 0;
            wall[i] = System.nanoTime() - wallStart;
            cpu[i] = threads.getCurrentThreadCpuTime() - cpuStart;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf(Locale.ROOT, "verdict for %,d rows x %,d processes (%,d chars of JSON): median wall %.1f ms, "
                + "median CPU %.1f ms (min %.1f / %.1f)%n", size, size, chars, wall[runs / 2] / 1e6, cpu[runs / 2] / 1e6,
                wall[0] / 1e6, cpu[0] / 1e6);
    }
}
