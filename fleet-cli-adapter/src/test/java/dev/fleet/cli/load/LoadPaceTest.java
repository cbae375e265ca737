package dev.fleet.cli.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.testing.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadPaceTest {

    @Test
    void aCalibrationTenTimesSlowerThanAQuietHostMakesEveryBoundAtLeastTenTimesLonger() {
        LoadPace pace = new LoadPace(LoadPace.QUIET_START.multipliedBy(10), LoadPace.QUIET_STOP, 1);

        assertTrue(pace.slowness() >= 10, "slowness " + pace.slowness());
        assertTrue(pace.scaled(Duration.ofSeconds(15)).compareTo(Duration.ofSeconds(150)) >= 0);
    }

    @Test
    void aQuietCalibrationNeverShortensABound() {
        LoadPace pace = new LoadPace(Duration.ofMillis(100), Duration.ofMillis(10), 1);

        assertTrue(pace.slowness() >= 1);
        assertTrue(pace.scaled(Duration.ofSeconds(2)).compareTo(Duration.ofSeconds(2)) >= 0);
        assertTrue(pace.startTogether(50, Duration.ofSeconds(240)).compareTo(Duration.ofSeconds(240)) >= 0);
    }

    @Test
    void fiftyStartedTogetherGetTwiceTheirCalibratedStartsOneAfterAnother() {
        LoadPace pace = new LoadPace(Duration.ofSeconds(20), Duration.ofMillis(500), 1);

        assertTrue(pace.startTogether(50, Duration.ofSeconds(240)).compareTo(Duration.ofSeconds(2_000)) >= 0);
    }

    @Test
    void aMassStopAddsTheCalibratedStopOfEveryServerSharingACore() {
        LoadPace pace = new LoadPace(LoadPace.QUIET_START, Duration.ofMillis(400), 1);
        int cores = Runtime.getRuntime().availableProcessors();

        // The contract's part is scaled by the load when asked, which moves between two calls on a
        // busy host: the calibrated part is compared on a zero contract, the scaling on its own.
        Duration one = pace.massStop(Duration.ZERO, 1);
        Duration fifty = pace.massStop(Duration.ZERO, 50);

        assertTrue(pace.massStop(Duration.ofSeconds(2), 1).compareTo(Duration.ofSeconds(2)) >= 0);
        assertTrue(fifty.minus(one).toMillis() >= 400L * ((50 + cores - 1) / cores - 1) - 1, one + " " + fifty);
    }

    @Test
    void aDiagnosisReadsAProcessesStateCpuAndThreadsFromProc() {
        long pid = ProcessHandle.current().pid();
        assumeTrue(Files.isReadable(Path.of("/proc", String.valueOf(pid), "stat")), "Linux only");

        ServeProcess.ProcStat stat = ServeProcess.ProcStat.of(pid).orElseThrow();

        assertEquals(1, stat.state().length(), stat.toString());
        assertTrue(stat.cpuSeconds() > 0, stat.toString());
        assertTrue(stat.threads() > 1, stat.toString());
    }
}
