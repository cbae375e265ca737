package dev.fleet.bench;

import static dev.fleet.bench.RelaySides.DIRECT;
import static dev.fleet.bench.RelaySides.FLEET;
import static dev.fleet.bench.RelaySides.NAMES;
import static dev.fleet.bench.RelaySides.RAW;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What {@link RelayLatency} prints of {@link RelayCalls}' figures: each side, each relay against the
 * direct side of the same turn, and issue 52's budgets, each line saying {@code within} or
 * {@code OVER}; the budget lines again at the end, together.
 */
final class RelayFigures {

    /** Fleet's added p50: at most this many times the raw relay's. */
    static final double ADDED_P50_RATIO = 1.5;
    /** Fleet's added p99, in milliseconds. */
    static final double ADDED_P99_MS = 0.5;
    /** Pipelined calls through fleet: at most this many times the direct side's time. */
    static final double PIPELINED_RATIO = 1.3;
    /** One large message through fleet: at most this many times the direct side's time. */
    static final double LARGE_RATIO = 1.5;

    private final List<String> budgets = new ArrayList<>();

    /** Each side's latency, then each relay's added latency, call by call against the direct call of the same turn. */
    void sequential(long[][] nanos) {
        System.out.printf(Locale.ROOT, "sequential tools/call echo, %d per side, the three in turn, the order rotating:%n",
                nanos[DIRECT].length);
        double[][] added = latencies(nanos);
        double fleetP50 = added[FLEET][0];
        double rawP50 = added[RAW][0];
        // A raw relay adding nothing measurable leaves no ratio: then fleet must add nothing either.
        String ratio = rawP50 > 0 ? String.format(Locale.ROOT, "%.2fx", fleetP50 / rawP50) : "no ratio";
        budget(String.format(Locale.ROOT, "added p50, fleet relay / raw relay: %s (%.3f ms / %.3f ms); budget <= %.1fx",
                ratio, fleetP50, rawP50, ADDED_P50_RATIO), fleetP50 <= ADDED_P50_RATIO * Math.max(rawP50, 0));
        budget(String.format(Locale.ROOT, "added p99, fleet relay: %.3f ms (raw relay %.3f ms); budget <= %.1f ms",
                added[FLEET][2], added[RAW][2], ADDED_P99_MS), added[FLEET][2] <= ADDED_P99_MS);
        // Where the floor itself adds more than the budget (a host whose scheduler pauses a process
        // for milliseconds), what fleet adds beyond the floor is what this host can show of its own cost.
        if (added[RAW][2] > ADDED_P99_MS) {
            budget(String.format(Locale.ROOT, "added p99 beyond the floor, fleet relay - raw relay: %.3f ms (the raw "
                    + "relay's own %.3f ms is over %.1f ms here); budget <= %.1f ms", added[FLEET][2] - added[RAW][2],
                    added[RAW][2], ADDED_P99_MS, ADDED_P99_MS), added[FLEET][2] - added[RAW][2] <= ADDED_P99_MS);
        }
    }

    /**
     * The sequential calls again, right after the large messages: no budget, since every side's tail then
     * shows the JVMs' collectors at work on what those messages left (the client's and the children's
     * alike), which is why the budgeted calls come before them.
     */
    void afterLarge(long[][] nanos) {
        System.out.printf(Locale.ROOT, "the same %d sequential calls a side again, right after the large messages "
                + "(no budget: every side's tail is the collectors'):%n", nanos[DIRECT].length);
        latencies(nanos);
    }

    /** Prints each side's p50, p90, p99 and each relay's paired differences; the latter as {p50, p90, p99} ms by side. */
    private static double[][] latencies(long[][] nanos) {
        int calls = nanos[DIRECT].length;
        for (int side = 0; side < 3; side++) {
            long[] sorted = sorted(nanos[side]);
            System.out.printf(Locale.ROOT, "  %-12s p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, min %.3f ms%n",
                    NAMES.get(side) + ":", ms(sorted, 50), ms(sorted, 90), ms(sorted, 99), sorted[0] / 1e6);
        }
        double[][] added = new double[3][];
        for (int side : new int[] {RAW, FLEET}) {
            long[] difference = new long[calls];
            for (int i = 0; i < calls; i++) {
                difference[i] = nanos[side][i] - nanos[DIRECT][i];
            }
            long[] sorted = sorted(difference);
            added[side] = new double[] {ms(sorted, 50), ms(sorted, 90), ms(sorted, 99)};
            System.out.printf(Locale.ROOT, "  %s - direct, paired: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms "
                    + "(p99 - direct's p99: %.3f ms)%n", NAMES.get(side), added[side][0], added[side][1],
                    added[side][2], ms(sorted(nanos[side]), 99) - ms(sorted(nanos[DIRECT]), 99));
        }
        return added;
    }

    /**
     * Rounds of {@code what}, each relay's time over the direct side's of the same round; the budget on
     * the median of fleet's rounds' ratios.
     */
    void rounds(String what, long[][] nanos, double limit) {
        int rounds = nanos[DIRECT].length;
        double[][] ratios = new double[3][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int side : new int[] {RAW, FLEET}) {
                ratios[side][round] = nanos[side][round] / (double) nanos[DIRECT][round];
            }
            System.out.printf(Locale.ROOT, "  round %2d: direct %7.1f ms, raw relay %7.1f ms (%.2fx), "
                    + "fleet relay %7.1f ms (%.2fx)%n", round + 1, nanos[DIRECT][round] / 1e6, nanos[RAW][round] / 1e6,
                    ratios[RAW][round], nanos[FLEET][round] / 1e6, ratios[FLEET][round]);
        }
        double[] median = new double[3];
        double[] medianRatio = new double[3];
        for (int side = 0; side < 3; side++) {
            median[side] = ms(sorted(nanos[side]), 50);
            double[] sortedRatios = ratios[side].clone();
            Arrays.sort(sortedRatios);
            medianRatio[side] = median(sortedRatios);
        }
        System.out.printf(Locale.ROOT, "%s, %d rounds per side: median direct %.1f ms, raw relay %.1f ms, fleet relay "
                + "%.1f ms; median of the rounds' ratios to direct: raw relay %.2fx, fleet relay %.2fx%n", what, rounds,
                median[DIRECT], median[RAW], median[FLEET], medianRatio[RAW], medianRatio[FLEET]);
        budget(String.format(Locale.ROOT, "%s, fleet relay / direct: %.2fx (raw relay %.2fx); budget <= %.1fx", what,
                medianRatio[FLEET], medianRatio[RAW], limit), medianRatio[FLEET] <= limit);
    }

    /** Every budget line so far, together. */
    void summary() {
        System.out.println("issue 52's budgets:");
        budgets.forEach(line -> System.out.println("  " + line));
    }

    private void budget(String line, boolean within) {
        String full = line + ": " + (within ? "within" : "OVER");
        budgets.add(full);
        System.out.println("  " + full);
    }

    private static long[] sorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    /** The {@code percent} percentile of sorted nanoseconds, in milliseconds. */
    private static double ms(long[] sorted, int percent) {
        return FleetProcesses.percentile(sorted, percent);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
