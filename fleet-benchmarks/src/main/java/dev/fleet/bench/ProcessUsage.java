package dev.fleet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@link RelayLatency}'s three processes (the wrapping member, its child, the direct child) spend
 * from the moment this is made: CPU time to the nanosecond ({@code /proc/PID/task/TID/schedstat},
 * summed over threads: USER_HZ ticks are too coarse for a call of a tenth of a millisecond), and read
 * and write system calls ({@code /proc/PID/io}), which say how many lines each read and write carries.
 */
final class ProcessUsage {

    private static final String[] NAMES = {"the wrapping member", "its child", "the direct child"};

    private final long[] pids;
    private final long[][] before;

    ProcessUsage(long member, long child, long direct) {
        this.pids = new long[] {member, child, direct};
        this.before = new long[][] {usage(member), usage(child), usage(direct)};
    }

    /** One line: each process's CPU time, reads and writes per call since this was made. */
    void report(int calls) {
        StringBuilder line = new StringBuilder("  per call:");
        for (int i = 0; i < pids.length; i++) {
            long[] after = usage(pids[i]);
            line.append(String.format(Locale.ROOT, "%s %s %.1f us CPU, %.2f reads, %.2f writes", i == 0 ? "" : ";",
                    NAMES[i], (after[0] - before[i][0]) / 1e3 / calls, (after[1] - before[i][1]) / (double) calls,
                    (after[2] - before[i][2]) / (double) calls));
        }
        System.out.println(line);
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
