package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Roster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The /proc observer against a hand-made /proc-shaped directory: the awkward cases a live host
 * rarely shows on demand (odd comm fields, vanished processes, a foreign pid namespace).
 */
@EnabledOnOs(OS.LINUX)
class FakeProcTest {

    private static final long OWN_PID = 4242;
    private static final long BOOT_SECONDS = 1_700_000_000L;

    @TempDir
    Path proc;

    @Test
    void parsesStartAfterTheLastParenthesisAndJoinsArguments() throws IOException {
        standardProc();
        process(100, "java\0-jar\0/opt/fleet.jar\0serve\0--profile\0prgs-author\0", stat(100, "we ird) (name", 12345));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of());

        assertInstanceOf(ProcessObservation.Available.class, observation);
        assertEquals("0a1b2c3d-0000-4000-8000-000000000001", observation.bootId());
        assertEquals("fake-host", observation.hostname());
        ObservedProcess process = observation.processes().get(0);
        assertEquals(100, process.pid());
        assertEquals("java -jar /opt/fleet.jar serve --profile prgs-author", process.commandLine());
        assertTrue(process.matchesServer());
        // 12345 ticks at 100 per second = 123.45 s after boot
        assertEquals(Instant.ofEpochMilli(BOOT_SECONDS * 1000 + 123_450), process.startedAt());
        assertEquals(System.getProperty("user.name"), process.user());
    }

    @Test
    void aRegisteredProcessWithAnEmptyCommandLineIsReportedButNeverMatches() throws IOException {
        standardProc();
        process(2, "", stat(2, "kthreadd", 0));
        process(3, "", stat(3, "kworker/0:1", 5));

        // "^$" would be found in an empty command line: empty ones must never be matched at all.
        ProcessObservation observation = observe(List.of("^$"), Set.of(2L));

        assertEquals(1, observation.processes().size(), () -> observation.processes().toString());
        ObservedProcess process = observation.processes().get(0);
        assertEquals(2, process.pid());
        assertEquals("", process.commandLine());
        assertFalse(process.matchesServer());
        assertEquals(Instant.ofEpochSecond(BOOT_SECONDS), process.startedAt());
    }

    @Test
    void aProcessThatVanishedMidScanIsSkipped() throws IOException {
        standardProc();
        Files.createDirectories(proc.resolve("200"));
        Files.writeString(proc.resolve("200/cmdline"), "fleet.jar serve\0");
        Files.createDirectories(proc.resolve("201"));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(201L, 999L));

        assertInstanceOf(ProcessObservation.Available.class, observation);
        assertTrue(observation.processes().isEmpty(), () -> observation.processes().toString());
    }

    @Test
    void anUnreadableStartIsNullNotAnError() throws IOException {
        standardProc();
        process(300, "fleet.jar serve\0", "300 (truncated");
        process(301, "fleet.jar serve\0", "301 (x) S 1 2 3");

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of());

        assertEquals(2, observation.processes().size());
        observation.processes().forEach(process -> assertNull(process.startedAt()));
    }

    @Test
    void noBootTimeMeansNoStartInstants() throws IOException {
        standardProc();
        Files.writeString(proc.resolve("stat"), "cpu  1 2 3\nprocesses 7\n");
        process(400, "fleet.jar serve\0", stat(400, "java", 100));

        ObservedProcess process = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of()).processes().get(0);

        assertNull(process.startedAt());
    }

    @Test
    void aMissingProcTableIsAnIoError() {
        ProcessObservation observation = new ProcfsProcessObserver(proc.resolve("absent"), OWN_PID)
                .observe(List.of(), Set.of());

        assertEquals(ListingReason.IO_ERROR, assertInstanceOf(ProcessObservation.Unavailable.class, observation).reason());
        assertTrue(observation.processes().isEmpty());
        assertFalse(observation.hostname().isBlank());
    }

    @Test
    void aProcTableOfAnotherPidNamespaceIsAnIoError() throws IOException {
        standardProc();
        process(500, "fleet.jar serve\0", stat(500, "java", 1));

        ProcessObservation observation = new ProcfsProcessObserver(proc, OWN_PID + 1)
                .observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of());

        assertEquals(ListingReason.IO_ERROR, assertInstanceOf(ProcessObservation.Unavailable.class, observation).reason());
        assertEquals("fake-host", observation.hostname());
    }

    @Test
    void anUnlistableProcTableIsPermissionDenied() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads any directory");
        standardProc();
        Files.setPosixFilePermissions(proc, PosixFilePermissions.fromString("-wx------"));
        try {
            ProcessObservation observation = observe(List.of(), Set.of());

            assertEquals(ListingReason.PERMISSION_DENIED, assertInstanceOf(ProcessObservation.Unavailable.class, observation).reason());
        } finally {
            Files.setPosixFilePermissions(proc, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aZombieIsNoLiveProcessEvenWhenRegistered() throws IOException {
        standardProc();
        process(300, "", stat(300, "fleet", 77).replace(") S ", ") Z "));
        process(301, "java\0-jar\0fleet.jar\0serve\0", stat(301, "java", 78).replace(") S ", ") X "));
        process(302, "", stat(302, "kworker/1:0", 79).replace(") S ", ") I "));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(300L, 302L));

        assertEquals(List.of(302L), observation.processes().stream().map(ObservedProcess::pid).toList());
    }

    /**
     * SIGKILLed while it frees its memory: the main thread Z, the last thread still R with no memory left (an empty
     * cmdline) for as long as that takes (a tenth of a second for a JVM's 3 GiB heap), marked exiting. It runs
     * nothing: absent, so its registration reads process_exited, never not_a_server_process.
     */
    @Test
    void aProcessKilledWhileItFreesItsMemoryIsNoLiveProcess() throws IOException {
        standardProc();
        process(320, "", stat(320, "java", 80).replace(") S ", ") Z "));
        Files.writeString(proc.resolve("320/status"), "Name:\tjava\nState:\tZ (zombie)\nThreads:\t2\n");
        ProcEntries.fakeThread(proc, 320, 320, "", stat(320, "java", 80).replace(") S ", ") Z "));
        ProcEntries.fakeThread(proc, 320, 321, "", exiting(stat(321, "GC Thread#0", 81)));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(320L));

        assertEquals(List.of(), observation.processes(), "it runs nothing");
    }

    /** The same when its main thread is the last out: R, exiting, its cmdline empty or not yet. */
    @Test
    void aProcessWhoseMainThreadIsTheLastOutIsNoLiveProcess() throws IOException {
        standardProc();
        process(340, "", exiting(stat(340, "java", 85)));
        process(341, "java\0-jar\0fleet.jar\0serve\0", exiting(stat(341, "java", 86)));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(340L, 341L));

        assertEquals(List.of(), observation.processes(), "neither runs anything");
    }

    /**
     * Its main thread alone exits (or has), another runs on: the process lives, read from that thread; a thread
     * that is exiting too is passed over. A sixth server so is never missed, neither as its main thread exits
     * (its cmdline still readable) nor after.
     */
    @Test
    void aProcessWhoseMainThreadAloneExitsIsReadFromAThreadThatRunsOn() throws IOException {
        standardProc();
        process(330, "", stat(330, "java", 82).replace(") S ", ") Z "));
        Files.writeString(proc.resolve("330/status"), "Name:\tjava\nState:\tZ (zombie)\nThreads:\t3\n");
        ProcEntries.fakeThread(proc, 330, 331, "", exiting(stat(331, "exiting", 83)));
        ProcEntries.fakeThread(proc, 330, 332, "java\0-jar\0fleet.jar\0serve\0--profile\0a\0", stat(332, "worker", 84));
        process(335, "java\0-jar\0fleet.jar\0serve\0--profile\0b\0", exiting(stat(335, "java", 87)));
        ProcEntries.fakeThread(proc, 335, 336, "java\0-jar\0fleet.jar\0serve\0--profile\0b\0", stat(336, "worker", 88));

        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of());

        assertEquals(List.of("java -jar fleet.jar serve --profile a", "java -jar fleet.jar serve --profile b"),
                observation.processes().stream().map(ObservedProcess::commandLine).toList());
        assertEquals(Instant.ofEpochMilli(BOOT_SECONDS * 1000 + 820), observation.processes().get(0).startedAt(),
                "its start is its main thread's");
    }

    private static String exiting(String stat) {
        return ProcEntries.withFlags(stat.replace(") S ", ") R "), ProcEntries.EXITING_FLAGS);
    }

    @Test
    void aProcThatHidesOtherUsersIsUnavailableNotShorter() throws IOException {
        standardProc();
        Files.writeString(proc.resolve("mounts"), "proc /proc proc rw,relatime,hidepid=invisible 0 0\n");
        Files.delete(proc.resolve(OWN_PID + "/mountinfo")); // an older kernel's view: /proc/mounts tells
        Files.writeString(proc.resolve(OWN_PID + "/status"), "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\n");


        assertMayHideProcesses();
    }

    /** The probe: with subset=pid there is no top-level mounts link; our own mountinfo still tells. */
    @Test
    void hidepidWithSubsetPidIsUnavailableNotShorter() throws IOException {
        standardProc();
        Files.writeString(proc.resolve(OWN_PID + "/mountinfo"),
                "65 47 0:39 / /proc rw,relatime - proc proc rw,hidepid=invisible,subset=pid\n");


        assertMayHideProcesses();
    }

    /** When the mount options cannot be read, processes may be hidden: permission_denied. */
    @Test
    void unreadableMountOptionsAreUnavailable() throws IOException {
        standardProc();
        Files.delete(proc.resolve(OWN_PID + "/mountinfo"));


        assertMayHideProcesses();
    }

    private ProcessObservation observe(List<String> patterns, Set<Long> registeredPids) {
        return new ProcfsProcessObserver(proc, OWN_PID).observe(patterns, registeredPids);
    }

    private void standardProc() throws IOException {
        Files.createSymbolicLink(proc.resolve("self"), Path.of(Long.toString(OWN_PID)));
        Files.writeString(proc.resolve("stat"), "cpu  1 2 3\nintr 5\nbtime " + BOOT_SECONDS + "\nprocesses 7\n");
        Files.createDirectories(proc.resolve("sys/kernel/random"));
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "0a1b2c3d-0000-4000-8000-000000000001\n");
        Files.writeString(proc.resolve("sys/kernel/hostname"), "fake-host\n");
        Files.createDirectories(proc.resolve("net"));
        process(OWN_PID, "java\0Test\0", stat(OWN_PID, "java", 1));
        Files.writeString(proc.resolve(OWN_PID + "/status"), "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\n");
        Files.writeString(proc.resolve(OWN_PID + "/mountinfo"),
                "23 1 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n");
    }

    private void process(long pid, String cmdline, String stat) throws IOException {
        Path directory = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.write(directory.resolve("cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
        Files.writeString(directory.resolve("stat"), stat);
    }

    /** A stat line shaped like the kernel's, with {@code starttime} as field 22. */
    static String stat(long pid, String comm, long startTicks) {
        StringBuilder line = new StringBuilder().append(pid).append(" (").append(comm).append(") S");
        for (int field = 4; field <= 21; field++) {
            line.append(' ').append(field == 9 ? ProcEntries.USER_FLAGS : field * 7);
        }
        line.append(' ').append(startTicks);
        for (int field = 23; field <= 52; field++) {
            line.append(" 0");
        }
        return line.append('\n').toString();
    }

    /** Processes may be hidden from this observer: the listing is unavailable, never merely shorter. */
    private void assertMayHideProcesses() {
        ProcessObservation observation = observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of());
        assertEquals(ListingReason.PERMISSION_DENIED, assertInstanceOf(ProcessObservation.Unavailable.class, observation).reason());
    }
}
