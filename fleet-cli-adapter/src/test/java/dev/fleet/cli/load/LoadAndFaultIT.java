package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.VerdictShape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load-and-fault suite (issue 11, items 5 and 8): real {@code fleet serve} processes from the
 * packaged jar, all started together on a fresh registry, heartbeating every second, with assessors
 * calling {@code gitea_assess_fleet_inventory} in a loop, while faults are injected one after
 * another, in cycles, until the load has run its time:
 *
 * <ol>
 * <li>kill -9 of new servers while they register (their process has the registry open);</li>
 * <li>another writer stopped (SIGSTOP) inside an IMMEDIATE transaction, then resumed;</li>
 * <li>an exclusive lock ({@code locking_mode=EXCLUSIVE}, {@code BEGIN EXCLUSIVE}) held by another process;</li>
 * <li>the registry file (with {@code -wal} and {@code -shm}) deleted under the live servers.</li>
 * </ol>
 *
 * Locks are held {@link LoadRun#FAULT_HOLD} (well inside the writers' deadlines: 30 s for a heartbeat or
 * a registration, each attempt waiting up to its 5 s busy timeout). What must hold: every server
 * registers on its first attempt; outside a fault every live server always has a running row, and after each fault every live server has a running
 * row with a heartbeat after the fault's end within the settle window; no server ever logs a busy
 * error or a failed registration; every verdict is well formed ({@link VerdictShape}); no assessment
 * outside a fault reports the registry locked; after each fault the CLI sees the whole fleet with the
 * gate satisfied; and, told to (stdin EOF for half, SIGTERM for the other half, all at once), every
 * server marks its row stopped and exits.
 *
 * <p>It asserts what is lost and what is wrong, never how fast a starved host is: before the fifty
 * start, one server's start and stop are timed under whatever else the host runs ({@link LoadPace}),
 * and every bound it checks (the fifty registering, the settle after a fault, a tool call, an exit
 * when all are told at once) is its quiet-host value scaled by that calibration or by the load when
 * the bound is used, whichever is slower. The contract's "exits within 2 s" is tested on one server
 * alone (StdioShutdownTest, LockedRegistryShutdownTest, FleetServersIT), where it means something.
 *
 * <p>Sized by system properties: {@code fleet.load.servers} (50), {@code fleet.load.seconds} (30; a
 * soak is the same suite run longer, see docs/TESTING.md), {@code fleet.load.assessors} (4) and
 * {@code fleet.load.patience} (1.0; multiplies every wait for a machine slower than measured). Every
 * wait is bounded; every process it starts is destroyed in {@code finally}. The figures are printed at the end.
 *
 * <p>This class is the run's order; its phases are {@link LoadStart}, {@link LoadUnderFaults} (with
 * {@link RegistryFaults}), {@link LoadStops} and {@link ServerLogScan}, sharing one {@link LoadRun}.
 */
class LoadAndFaultIT {

    @TempDir
    Path dir;

    @Test
    void fiftyServersUnderFourAssessorsKeepEveryRowThroughEveryFault() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")),
                "the load suite watches /proc/<pid>/fd to kill servers mid-registration: Linux only");
        LoadRun run = new LoadRun(dir);
        LoadFindings found = run.found;
        long began = System.nanoTime();
        try {
            LoadStart start = new LoadStart(run);
            start.calibrate();
            start.startTogether();
            new LoadUnderFaults(run).runLoadWithFaults();
            LoadStops stops = new LoadStops(run);
            stops.finalVerdicts();
            stops.stopTwoUnderAnExclusiveLock();
            stops.stopEveryServerAtOnce();
        } catch (Exception | AssertionError e) {
            // Whatever was measured until then is still worth reporting, with the logs.
            found.problem("the suite could not go on in phase '" + run.lastPhase() + "': " + e);
        } finally {
            run.loadRunning.set(false);
            new ServerLogScan(run).scanServerLogs();
            run.cleanUp();
        }
        found.figure("suite wall time", seconds(System.nanoTime() - began));
        found.figure("peak slowness (calibration, row audit)", String.format(Locale.ROOT,
                "%.1f (a starved host from %.1f)", found.peakSlowness(), LoadFindings.STARVED));
        String summary = run.summary();
        System.out.println(summary);
        // Kept beside the jar, so that CI can keep the figures of every run.
        Files.writeString(FleetJar.JAR.resolveSibling("load-and-fault-figures.txt"), summary + (found.isEmpty() ? ""
                : "\n" + String.join("\n", found.firstFew(200)) + "\n"));
        assertEquals(List.of(), LoadRun.serversOf(run.registry), "no process outlives the suite");
        assertTrue(found.isEmpty(), "load-and-fault suite found " + found.size() + " problem(s):\n"
                + String.join("\n", found.firstFew(40)) + "\n" + summary);
    }
}
