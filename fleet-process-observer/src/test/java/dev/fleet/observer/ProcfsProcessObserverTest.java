package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.verdict.OutsideText;
import dev.fleet.testing.MainThreadExited;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.Patience;
import dev.fleet.testing.SecretArguments;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The /proc observer against this host's real process table, with real child processes. */
@EnabledOnOs(OS.LINUX)
class ProcfsProcessObserverTest {

    private final ProcfsProcessObserver observer = new ProcfsProcessObserver();
    @RegisterExtension
    final Spawned spawned = new Spawned();

    @Test
    void listsAMarkedServerWithItsTruePidCommandLineAndStart() throws Exception {
        Instant before = Instant.now();
        Spawned.Marked child = spawned.markedSleep();
        Instant after = Instant.now();

        ProcessObservation observation = observer.observe(List.of(Pattern.quote(child.marker())), Set.of());

        assertInstanceOf(ProcessObservation.Available.class, observation);
        assertEquals(1, observation.processes().size(), () -> "exactly the marked process: " + observation);
        ObservedProcess process = observation.processes().get(0);
        assertEquals(child.pid(), process.pid());
        assertTrue(process.matchesServer());
        assertEquals(child.commandLine(), process.commandLine());
        assertEquals(System.getProperty("user.name"), process.user());
        // btime is whole seconds and starttime whole ticks, so the start may read up to 1 s + 1 tick early.
        assertNotNull(process.startedAt());
        assertTrue(!process.startedAt().isBefore(before.minus(Duration.ofMillis(1010)))
                && !process.startedAt().isAfter(after.plusSeconds(1)),
                () -> process.startedAt() + " is not within a second of the spawn at " + before);
    }

    /**
     * Patterns see the command line as it is (one may name a secret's value); what is kept has every secret
     * masked, argument by argument, so a value holding spaces is hidden whole.
     */
    @Test
    void theCommandLineKeptHasItsSecretsMaskedArgumentByArgument() {
        String marker = Spawned.marker();
        try (MarkerProcess child = MarkerProcess.withArguments(marker, SecretArguments.array())) {
            ProcessObservation observation = observer.observe(List.of(Pattern.quote(marker + " -c read -t 600 "
                    + marker + " --token ZqTokA ZqTokB")), Set.of());

            assertEquals(1, observation.processes().size(), () -> "processes: " + observation.processes());
            ObservedProcess process = observation.processes().get(0);
            assertEquals(child.pid(), process.pid());
            assertTrue(process.matchesServer());
            assertEquals(marker + " -c read -t 600 " + marker + " " + SecretArguments.MASKED, process.commandLine());
            SecretArguments.assertHidden(process.commandLine(), "the observed command line");
        }
    }

    @Test
    void aCommandLineLongerThanTheReadBufferIsReadWhole() throws Exception {
        String marker = Spawned.marker() + "-" + "x".repeat(40_000);
        String token = Spawned.token();
        Process child = spawned.markedSleep(marker, token);

        ProcessObservation observation = observer.observe(List.of(Pattern.quote(token) + "$"), Set.of());

        assertEquals(1, observation.processes().size(), () -> "processes: " + observation.processes().size());
        assertEquals(child.pid(), observation.processes().get(0).pid());
        assertEquals(OutsideText.cap(marker + " 600 " + token), observation.processes().get(0).commandLine(),
                "read whole (the pattern is anchored at its end), kept capped");
    }

    @Test
    void aRegisteredPidThatHasExitedIsAbsent() throws Exception {
        Process child = spawned.start("true");
        child.waitFor();
        long exitedPid = child.pid();

        ProcessObservation observation = observer.observe(List.of(Pattern.quote(Spawned.marker())), Set.of(exitedPid));

        assertInstanceOf(ProcessObservation.Available.class, observation);
        assertTrue(observation.processes().stream().noneMatch(process -> process.pid() == exitedPid),
                () -> "pid " + exitedPid + " should be absent: " + observation.processes());
    }

    @Test
    void aZombieNotYetReapedByItsParentIsAbsent() throws Exception {
        // The short sleep's parent becomes the long one, which never reaps it: a real zombie.
        Process parent = spawned.start("bash", "-c", "sleep 0.1 & exec sleep 600");
        long zombie = -1;
        for (int attempt = 0; attempt < 200 && zombie < 0; attempt++) {
            Thread.sleep(25);
            zombie = parent.children().mapToLong(ProcessHandle::pid)
                    .filter(pid -> MainThreadExited.state(pid).equals("Z")).findFirst().orElse(-1);
        }
        assertTrue(zombie > 0, "a zombie child appeared");
        long zombiePid = zombie;

        ProcessObservation observation = observer.observe(List.of(), Set.of(zombiePid, parent.pid()));

        assertEquals(List.of(parent.pid()), observation.processes().stream().map(process -> process.pid()).toList(),
                "the zombie is dead; its parent is alive");
    }

    /** A sixth server could hide so: one exit call on its main thread, and its cmdline reads empty. */
    @Test
    void aProcessWhoseMainThreadAloneHasExitedIsListedWithItsCommandLine() throws Exception {
        String marker = Spawned.marker();
        Process process = spawned.track(MainThreadExited.start(marker));

        ProcessObservation observation = observer.observe(List.of(Pattern.quote(marker)), Set.of());

        assertEquals(List.of(process.pid()), observation.processes().stream().map(ObservedProcess::pid).toList(),
                () -> "the live process under its exited main thread: " + observation.processes());
        ObservedProcess seen = observation.processes().get(0);
        assertTrue(seen.matchesServer());
        assertTrue(seen.commandLine().endsWith(" " + marker), seen.commandLine());
        assertEquals(process.info().startInstant().orElseThrow(), seen.startedAt(), "the main thread's start");
        assertEquals(ProcessHandle.current().pid(), seen.parentPid());
    }

    /**
     * Killed while it frees 512 MiB (25 ms here), its last thread runs on a moment with no memory and an empty
     * command line: every look in that time sees the registered process whole, or not at all (never as a process
     * of no server, which would read as not_a_server_process instead of process_exited).
     */
    @Test
    void aProcessKilledWhileItFreesItsMemoryIsSeenWholeOrNotAtAll() throws Exception {
        String marker = Spawned.marker();
        Process process = spawned.track(new ProcessBuilder("python3", "-c", String.join("\n",
                "import sys, threading, time",
                "memory = bytearray(b'x') * (512 << 20)",
                "threading.Thread(target=time.sleep, args=(600,)).start()",
                "print('ready', flush=True)",
                "time.sleep(600)"), marker).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        assertEquals("ready", process.inputReader().readLine());

        process.destroyForcibly();
        List<String> looks = new ArrayList<>();
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
        Optional<ObservedProcess> seen;
        do {
            seen = observer.observe(List.of(Pattern.quote(marker)), Set.of(process.pid())).processes().stream()
                    .filter(observed -> observed.pid() == process.pid()).findFirst();
            seen.ifPresent(observed -> looks.add(observed.commandLine()));
        } while (seen.isPresent() && System.nanoTime() < deadline);

        assertTrue(seen.isEmpty(), "gone in the end");
        assertTrue(looks.stream().allMatch(line -> line.endsWith(" " + marker)), () -> "looks: " + looks);
    }

    @Test
    void aRegisteredPidIsLookedUpWhateverItsCommandLine() throws Exception {
        Process child = spawned.sleep();

        ProcessObservation observation = observer.observe(List.of(Pattern.quote(Spawned.marker())), Set.of(child.pid()));

        assertEquals(1, observation.processes().size(), () -> observation.processes().toString());
        ObservedProcess process = observation.processes().get(0);
        assertEquals(child.pid(), process.pid());
        assertFalse(process.matchesServer());
        assertEquals("sleep 600", process.commandLine());
        assertNotNull(process.startedAt());
    }

    @Test
    void startInstantsAndUsersAreExactlyWhatProcessHandleReports() throws Exception {
        List<Long> pids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pids.add(spawned.sleep().pid());
        }
        pids.add(ProcessHandle.current().pid());
        ProcessHandle.current().parent().ifPresent(parent -> pids.add(parent.pid()));
        pids.add(1L);

        Map<Long, ObservedProcess> observed = byPid(observer.observe(List.of(), Set.copyOf(pids)));

        for (long pid : pids) {
            ProcessHandle.Info info = ProcessHandle.of(pid).orElseThrow().info();
            ObservedProcess process = observed.get(pid);
            assertNotNull(process, () -> "pid " + pid + " not observed");
            assertEquals(info.startInstant().orElse(null), process.startedAt(), () -> "start of pid " + pid);
            assertEquals(info.user().orElse(null), process.user(), () -> "user of pid " + pid);
        }
    }

    @Test
    void seesItsOwnProcessWhenRegistered() {
        long self = ProcessHandle.current().pid();

        ObservedProcess process = byPid(observer.observe(List.of(), Set.of(self))).get(self);

        assertNotNull(process);
        assertFalse(process.matchesServer());
        assertTrue(process.commandLine().contains("java"), process.commandLine());
        assertEquals(ProcessHandle.current().info().startInstant(), Optional.ofNullable(process.startedAt()));
    }

    @Test
    void readsTheBootIdAndHostname() {
        ProcessObservation observation = observer.observe(List.of(), Set.of());

        assertNotNull(observation.bootId());
        assertTrue(observation.bootId().matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
                observation.bootId());
        assertNotNull(observation.hostname());
        assertFalse(observation.hostname().isBlank());
    }

    @Test
    void aPatternThatMatchesNothingGivesAnEmptyAvailableListing() {
        ProcessObservation observation = observer.observe(List.of(Pattern.quote(Spawned.marker())), Set.of());

        assertInstanceOf(ProcessObservation.Available.class, observation);
        assertTrue(observation.processes().isEmpty(), () -> observation.processes().toString());
    }

    @Test
    void aProcessBothMatchingAndRegisteredIsListedOnce() throws Exception {
        Spawned.Marked child = spawned.markedSleep();

        ProcessObservation observation = observer.observe(List.of(child.marker(), "\\b600\\b"), Set.of(child.pid()));

        List<ObservedProcess> mine = observation.processes().stream().filter(p -> p.pid() == child.pid()).toList();
        assertEquals(1, mine.size());
        assertTrue(mine.get(0).matchesServer());
    }

    @Test
    void theListingIsOrderedByPid() throws Exception {
        String marker = Spawned.marker();
        for (int i = 0; i < 3; i++) {
            spawned.markedSleep(marker, Spawned.token());
        }

        List<ObservedProcess> processes = observer.observe(List.of(marker), Set.of(1L)).processes();

        assertEquals(4, processes.size(), processes::toString);
        for (int i = 1; i < processes.size(); i++) {
            assertTrue(processes.get(i - 1).pid() < processes.get(i).pid());
        }
    }

    @Test
    void theFactoryPicksTheProcReaderOnLinux() {
        assertTrue(ProcessObservers.forThisPlatform() instanceof ProcfsProcessObserver);
    }

    static Map<Long, ObservedProcess> byPid(ProcessObservation observation) {
        assertInstanceOf(ProcessObservation.Available.class, observation, () -> "unavailable: " + observation);
        return observation.processes().stream().collect(Collectors.toMap(ObservedProcess::pid, Function.identity()));
    }
}
