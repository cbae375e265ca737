package dev.fleet.bench;

import static dev.fleet.bench.MedianTiming.killAll;
import static dev.fleet.bench.MedianTiming.medianMillis;
import static dev.fleet.bench.MedianTiming.time;

import dev.fleet.bench.MedianTiming.Action;
import dev.fleet.domain.Roster;
import dev.fleet.domain.port.out.HostProcessTable;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.observer.ProcfsHostProcessTable;
import dev.fleet.observer.ProcfsProcessObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code fleet host}'s look at {@code /proc} beside the fleet's own observation, run by hand, never by
 * {@code verify} (see fleet-process-observer/BENCHMARK.md). Spawns extra {@code sleep} processes on pipes the
 * JVM writes (as a client holds its servers' stdin), then times, in this fresh JVM, the first call of each
 * (cold: what one {@code fleet host} or {@code fleet assess} pays) and the median of later calls.
 * Arguments: [extra processes] [warm-ups] [measured runs] [first: host|observe].
 */
public final class HostLookTiming {

    private HostLookTiming() {
    }

    public static void main(String[] args) throws Exception {
        int extra = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 21;
        boolean observeFirst = args.length > 3 && args[3].equals("observe");

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
            HostProcessTable table = new ProcfsHostProcessTable();
            ProcessObserver observer = new ProcfsProcessObserver();
            Set<Long> registered = Set.of(ProcessHandle.current().pid());
            Action look = () -> check(table.observe(), extra);
            Action observe = () -> observer.observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, registered);

            long coldFirst = time(observeFirst ? observe : look);
            long coldSecond = time(observeFirst ? look : observe);
            double lookMs = medianMillis(look, warmups, runs);
            double observeMs = medianMillis(observe, warmups, runs);
            HostProcessTable.Look seen = table.observe();
            long fds = seen.processes().stream().mapToLong(p -> p.pipesWritten().size()).sum();

            System.out.printf(Locale.ROOT, "processes looked at:             %d (%d extra sleeps), %d pipes written%n",
                    seen.processes().size(), extra, fds);
            System.out.printf(Locale.ROOT, "runs:                            %d warm-ups + %d measured, medians%n", warmups, runs);
            System.out.printf(Locale.ROOT, "host look, first call (cold):    %.2f ms%s%n",
                    (observeFirst ? coldSecond : coldFirst) / 1e6, observeFirst ? " (after observe's)" : "");
            System.out.printf(Locale.ROOT, "observe(), first call (cold):    %.2f ms%s%n",
                    (observeFirst ? coldFirst : coldSecond) / 1e6, observeFirst ? "" : " (after the look's)");
            System.out.printf(Locale.ROOT, "host look, warm:                 %.2f ms%n", lookMs);
            System.out.printf(Locale.ROOT, "observe(), warm:                 %.2f ms%n", observeMs);
            System.out.printf(Locale.ROOT, "per process looked at, warm:     %.1f us%n", lookMs * 1000 / seen.processes().size());
        } finally {
            killAll(sleeps);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }


    /** Keeps the look honest: it must have seen every sleep and the JVM writing their stdin. */
    private static void check(HostProcessTable.Look look, int extra) {
        long written = look.processes().stream().mapToLong(p -> p.pipesWritten().size()).sum();
        if (look.processes().size() < extra || written < extra || !look.warnings().isEmpty()) {
            throw new IllegalStateException("unexpected look: " + look.processes().size() + " processes, " + written
                    + " pipes written, warnings " + look.warnings());
        }
    }


}
