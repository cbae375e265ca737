package dev.fleet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link RelayLatency}'s processes (each relay, its child, the direct child) spend from the moment
 * this is made: CPU time to the nanosecond ({@code /proc/PID/task/TID/schedstat}, summed over threads:
 * USER_HZ ticks are too coarse for a call of a tenth of a millisecond), and read and write system calls
 * ({@code /proc/PID/io}), which say how many lines each read and write carries.
 */
final class ProcessUsage {

    private final Map<String, Long> pids;
    private final Map<String, long[]> before = new LinkedHashMap<>();

    /** {@code pids}: each process by the name its figures are printed under, in print order. */
    ProcessUsage(Map<String, Long> pids) {
        this.pids = pids;
        pids.forEach((name, pid) -> before.put(name, usage(pid)));
    }

    /** One line a process: its CPU time, reads and writes per call since this was made. */
    void report(int calls) {
        System.out.println("  per call:");
        pids.forEach((name, pid) -> {
            long[] after = usage(pid);
            long[] then = before.get(name);
            System.out.printf(Locale.ROOT, "    %-22s %7.1f us CPU, %5.2f reads, %5.2f writes%n", name,
                    (after[0] - then[0]) / 1e3 / calls, (after[1] - then[1]) / (double) calls,
                    (after[2] - then[2]) / (double) calls);
        });
    }

    /** CPU nanoseconds, read calls, write calls. */
    private static long[] usage(long pid) {
        long reads = 0;
        long writes = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
                if (line.startsWith("syscr:")) {
                    reads = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("syscw:")) {
                    writes = Long.parseLong(line.substring(6).trim());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read pid " + pid + "'s I/O counts: " + e.getMessage(), e);
        }
        return new long[] {cpuNanos(pid), reads, writes};
    }

    /** The CPU time of every live thread of {@code pid}, in nanoseconds (the first field of each schedstat). */
    static long cpuNanos(long pid) {
        long total = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    total += Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the CPU time of pid " + pid + ": " + e.getMessage(), e);
        }
        return total;
    }
}
