package dev.fleet.cli.load;

import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.Locale;

/**
 * How slow the host is for the load suite, measured inside the suite: one server's start (to its
 * running row, on a fresh registry: the first migration included, as for the fifty) and its stop
 * (stdin EOF to exit), timed under whatever else the host runs, before the fifty start. Every bound
 * the suite checks is its quiet-host value times {@link #slowness()}: the larger of what the
 * calibration measured against a quiet two-core host and the load per core when the bound is used
 * (another suite may start after the calibration), times {@code fleet.load.patience}. The suite so
 * asserts what is lost and what is wrong; how fast a starved host is never fails it.
 *
 * @param start the calibration server's start to its running row
 * @param stop the calibration server's exit after stdin EOF
 * @param patience {@code fleet.load.patience}
 */
record LoadPace(Duration start, Duration stop, double patience) {

    /** A calibration start on a quiet two-core host: a cold JVM and a first migration, with room. */
    static final Duration QUIET_START = Duration.ofSeconds(3);
    /** A calibration stop on a quiet two-core host (the contract's bound is 2 s; it takes a few hundred ms). */
    static final Duration QUIET_STOP = Duration.ofMillis(800);

    /**
     * How many times slower than a quiet two-core host this one is, now: from 1 to
     * {@link Patience#MOST}, so that every bound stays bounded, times {@code patience}.
     */
    double slowness() {
        double calibrated = Math.max(ratio(start, QUIET_START), ratio(stop, QUIET_STOP));
        return patience * Math.min(Patience.MOST, Math.max(1, Math.max(calibrated, Patience.factor())));
    }

    /** A bound written for a quiet two-core host, for this one now. */
    Duration scaled(Duration quiet) {
        return Duration.ofMillis((long) Math.ceil(quiet.toMillis() * slowness()));
    }

    /**
     * How long {@code servers} started together may take to register: as if each started alone, one
     * after another, at the calibrated pace (on two cores they overlap, so this has room), and never
     * less than {@code floor} scaled.
     */
    Duration startTogether(int servers, Duration floor) {
        Duration serial = start.multipliedBy(servers).multipliedBy(2);
        Duration scaledFloor = scaled(floor);
        return serial.compareTo(scaledFloor) > 0 ? Duration.ofMillis((long) (serial.toMillis() * patience))
                : scaledFloor;
    }

    /**
     * How long a server told to exit at the same moment as {@code servers - 1} others may take: the
     * contract's 2 s for one, scaled, plus the calibrated stop of the ones sharing each core with it.
     * Only a server past this is a problem; the contract's 2 s itself is tested alone, on one server
     * (StdioShutdownTest, LockedRegistryShutdownTest, FleetServersIT).
     */
    Duration massStop(Duration contract, int servers) {
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        long sharing = (servers + cores - 1) / cores;
        return scaled(contract).plus(Duration.ofMillis((long) (stop.toMillis() * sharing * patience)));
    }

    String describe() {
        return String.format(Locale.ROOT, "calibration: one server started in %.1f s and exited in %.2f s "
                + "(quiet two-core host: %.1f s, %.2f s); slowness now %.1f; %s", start.toMillis() / 1e3,
                stop.toMillis() / 1e3, QUIET_START.toMillis() / 1e3, QUIET_STOP.toMillis() / 1e3, slowness(),
                Patience.describe());
    }

    private static double ratio(Duration measured, Duration quiet) {
        return (double) measured.toMillis() / quiet.toMillis();
    }
}
