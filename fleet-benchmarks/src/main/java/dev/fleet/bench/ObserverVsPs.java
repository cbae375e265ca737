package dev.fleet.bench;

import static dev.fleet.bench.MedianTiming.killAll;
import static dev.fleet.bench.MedianTiming.medianMillis;
import static dev.fleet.bench.MedianTiming.time;

import dev.fleet.bench.MedianTiming.Action;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Roster;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.observer.ProcessHandleObserver;
import dev.fleet.observer.ProcfsProcessObserver;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Process observation against {@code ps}, run by hand or by {@code scripts/perf.sh observer}, never by
 * {@code verify} (see fleet-process-observer/BENCHMARK.md and docs/PERFORMANCE.md). Spawns extra {@code sleep}
 * processes, then compares the median wall time of a whole {@code observe()} scan with the median
 * of {@code ps -e -o pid=,lstart=,args=} (a subprocess, output read fully) on the same table.
 * Arguments: [extra processes] [warm-ups] [measured runs].
 */
public final class ObserverVsPs {

    private static final List<String> PS = List.of("ps", "-e", "-o", "pid=,lstart=,args=");

    private ObserverVsPs() {
    }

    public static void main(String[] args) throws Exception {
        int extra = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 21;

        List<Process> sleeps = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = new Thread(() -> killAll(sleeps));
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            for (int i = 0; i < extra; i++) {
                sleeps.add(new ProcessBuilder("sleep", "900")
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start());
            }
            // A few registered pids too, as an assessment has: ours and some sleeps.
            Set<Long> registered = new HashSet<>(Set.of(ProcessHandle.current().pid()));
            for (int i = 0; i < Math.min(5, sleeps.size()); i++) {
                registered.add(sleeps.get(i).pid());
            }
            List<String> patterns = Roster.DEFAULT_SERVER_PROCESS_PATTERNS;
            ProcessObserver procfs = new ProcfsProcessObserver();
            ProcessObserver jdk = new ProcessHandleObserver();

            long tableSize = ProcessHandle.allProcesses().count();
            long coldNanos = time(() -> check(procfs.observe(patterns, registered), registered));
            double observeMs = medianMillis(() -> check(procfs.observe(patterns, registered), registered), warmups, runs);
            double jdkMs = medianMillis(() -> check(jdk.observe(patterns, registered), registered), warmups, runs);
            double psMs = medianMillis(ObserverVsPs::runPs, warmups, runs);

            System.out.printf(Locale.ROOT, "processes in table:              %d (%d extra sleeps)%n", tableSize, extra);
            System.out.printf(Locale.ROOT, "runs:                            %d warm-ups + %d measured, medians%n", warmups, runs);
            System.out.printf(Locale.ROOT, "ProcfsProcessObserver first call: %.2f ms (cold, not in the median)%n", coldNanos / 1e6);
            System.out.printf(Locale.ROOT, "ProcfsProcessObserver.observe():  %.2f ms%n", observeMs);
            System.out.printf(Locale.ROOT, "ProcessHandleObserver.observe():  %.2f ms%n", jdkMs);
            System.out.printf(Locale.ROOT, "ps -e -o pid=,lstart=,args=:      %.2f ms%n", psMs);
            System.out.printf(Locale.ROOT, "ratio observe / ps:               %.3f%n", observeMs / psMs);
        } finally {
            killAll(sleeps);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }



    /** Keeps the scan honest: it must have seen the table and found every registered pid. */
    private static void check(ProcessObservation observation, Set<Long> registered) {
        if (observation instanceof ProcessObservation.Unavailable || observation.processes().size() < registered.size()) {
            throw new IllegalStateException("unexpected observation: " + observation);
        }
    }

    private static void runPs() throws IOException, InterruptedException {
        Process ps = new ProcessBuilder(PS).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (InputStream out = ps.getInputStream()) {
            byte[] all = out.readAllBytes();
            if (all.length == 0) {
                throw new IllegalStateException("ps printed nothing");
            }
        }
        if (ps.waitFor() != 0) {
            throw new IllegalStateException("ps failed");
        }
    }

    /** Runs from main's finally or, on Ctrl-C, from the shutdown hook: whichever comes first takes the list. */
}
