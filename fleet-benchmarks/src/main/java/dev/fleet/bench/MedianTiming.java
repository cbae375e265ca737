package dev.fleet.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@link ObserverVsPs} and {@link HostLookTiming} share: an action's wall time, its median after a
 * warm-up, and killing the extra {@code sleep}s they spread over the host.
 */
final class MedianTiming {

    /** One timed thing to do. */
    interface Action {
        void run() throws Exception;
    }

    private MedianTiming() {
    }

    /** The median of {@code runs} timings of {@code action}, in milliseconds, after {@code warmups} untimed. */
    static double medianMillis(Action action, int warmups, int runs) throws Exception {
        for (int i = 0; i < warmups; i++) {
            action.run();
        }
        long[] nanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            nanos[i] = time(action);
        }
        Arrays.sort(nanos);
        double median = runs % 2 == 1 ? nanos[runs / 2] : (nanos[runs / 2 - 1] + nanos[runs / 2]) / 2.0;
        return median / 1e6;
    }

    /** One run of {@code action}, in nanoseconds. */
    static long time(Action action) throws Exception {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    /** Kills every process of {@code sleeps} (a shutdown hook may race the normal end: whoever comes first). */
    static void killAll(List<Process> sleeps) {
        List<Process> mine;
        synchronized (sleeps) {
            mine = new ArrayList<>(sleeps);
            sleeps.clear();
        }
        mine.forEach(Process::destroyForcibly);
        for (Process sleep : mine) {
            try {
                sleep.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
