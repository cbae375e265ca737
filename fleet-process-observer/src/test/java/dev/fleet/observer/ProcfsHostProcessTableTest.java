package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.domain.host.HostProcess;
import dev.fleet.domain.port.out.HostProcessTable;
import dev.fleet.testing.MainThreadExited;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.Patience;
import dev.fleet.testing.SecretArguments;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * {@code fleet host}'s look against this host's real process table, with real processes started as clients start
 * servers: on a pipe the JVM writes, on a pty, on {@code /dev/null}, double-forked, in a session of their own.
 */
@EnabledOnOs(OS.LINUX)
class ProcfsHostProcessTableTest {

    private static final Duration START = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);

    private final HostProcessTable table = new ProcfsHostProcessTable();
    private final long ownPid = ProcessHandle.current().pid();
    private final List<Process> children = new ArrayList<>();
    /** Processes found by their marker, which may be no child of ours (double-forked): killed by pid. */
    private final List<Long> found = new ArrayList<>();

    @AfterEach
    void killEverythingStarted() throws InterruptedException {
        for (long pid : found) {
            ProcessHandle.of(pid).ifPresent(ProcfsHostProcessTableTest::killTree);
        }
        for (Process child : children) {
            killTree(child.toHandle());
        }
        for (Process child : children) {
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aChildOnAPipeIsSeenWholeWithTheJvmWritingItsStdin() throws Exception {
        String marker = MarkerProcess.marker();
        String token = MarkerProcess.token();
        Process child = start(new ProcessBuilder("bash", "-c", "exec -a \"$0\" sleep 600 \"$1\"", marker, token)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        awaitArgv0(marker);

        HostProcessTable.Look look = table.observe();

        HostProcess process = only(look, child.pid());
        HostProcess jvm = only(look, ownPid);
        assertEquals(List.of(marker, "600", token), process.argv());
        assertEquals(ownPid, process.parentPid());
        assertEquals(jvm.processGroup(), process.processGroup());
        assertEquals(jvm.session(), process.session());
        assertEquals(jvm.uid(), process.uid());
        assertEquals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"), jvm.uid());
        assertTrue(process.startTicks() > 0);
        assertEquals(child.info().startInstant(), Optional.ofNullable(process.startedAt()), "the JDK's instant");
        assertTrue(process.memoryBytes() > 0);
        assertNotNull(process.stdinPipe(), "a ProcessBuilder child reads a pipe");
        assertFalse(process.stdinTerminal());
        assertFalse(process.stdoutPipe(), "its stdout is /dev/null");
        assertTrue(jvm.pipesWritten().contains(process.stdinPipe()), () -> "the JVM writes " + process.stdinPipe()
                + " but writes " + jvm.pipesWritten());
        assertFalse(process.pipesWritten().contains(process.stdinPipe()), "its own stdin is read-only");
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim(), look.bootId());
        assertEquals(ownPid, look.ownPid());
    }

    @Test
    void threadsAreNoProcessesAndNoPidIsSeenTwice() {
        HostProcessTable.Look look = table.observe();

        List<Long> pids = look.processes().stream().map(HostProcess::pid).toList();
        assertEquals(pids.size(), new HashSet<>(pids).size());
        Set<Long> ownThreads = ProcEntries.threadsOf(ownPid);
        assertTrue(ownThreads.size() > 1, "a JVM runs threads");
        ownThreads.remove(ownPid);
        assertTrue(ownThreads.stream().noneMatch(pids::contains), () -> "threads listed: " + ownThreads);
        assertTrue(pids.contains(ownPid));
    }

    /** Its argv, memory and open files are a live thread's to read; its parent and start, the main thread's. */
    @Test
    void aChildWhoseMainThreadAloneHasExitedIsSeenWhole() throws Exception {
        String marker = MarkerProcess.marker();
        Process child = MainThreadExited.start(marker);
        children.add(child);

        HostProcessTable.Look look = table.observe();

        HostProcess process = only(look, child.pid());
        assertEquals(marker, process.argv().get(process.argv().size() - 1), () -> process.argv().toString());
        assertEquals(ownPid, process.parentPid());
        assertEquals(child.info().startInstant(), Optional.ofNullable(process.startedAt()), "the JDK's instant");
        assertTrue(process.memoryBytes() > 0);
        assertNotNull(process.stdinPipe(), "its stdin, the JVM's pipe, read through a live thread");
        assertTrue(only(look, ownPid).pipesWritten().contains(process.stdinPipe()));
    }

    @Test
    void thePipeAProcessWhoseMainThreadAloneHasExitedWritesIsSeenHeld() throws Exception {
        String reader = MarkerProcess.marker();
        Process pipeline = start(new ProcessBuilder("bash", "-c", "python3 -c \"$0\" | exec -a \"$1\" sleep 600",
                MainThreadExited.CODE, reader));
        long sleep = awaitArgv0(reader);
        long[] writer = {-1};
        Patience.await(START, POLL, () -> (writer[0] = pipeline.children().mapToLong(ProcessHandle::pid)
                .filter(pid -> "Z".equals(MainThreadExited.state(pid))).findFirst().orElse(-1)) > 0,
                "the main thread of python3 exits");

        HostProcessTable.Look look = table.observe();

        HostProcess read = only(look, sleep);
        assertNotNull(read.stdinPipe());
        assertTrue(only(look, writer[0]).pipesWritten().contains(read.stdinPipe()),
                () -> "python3 writes " + read.stdinPipe() + ": " + only(look, writer[0]).pipesWritten());
    }

    /**
     * A pipe a process writes through its stdout is its output ({@code codex exec ... | tee log}), which no client
     * hands a server as its stdin; one it writes through an fd of its own making is a stdin it feeds.
     */
    @Test
    void aPipeWrittenThroughStdoutAloneIsTheWritersOutput() throws Exception {
        String piping = MarkerProcess.marker();
        String teeing = MarkerProcess.marker();
        String feeding = MarkerProcess.marker();
        String fed = MarkerProcess.marker();
        start(new ProcessBuilder("bash", "-c", "exec -a \"$0\" sleep 600 | exec -a \"$1\" sleep 600", piping, teeing));
        start(new ProcessBuilder("bash", "-c", "exec 5> >(exec -a \"$1\" sleep 600); exec -a \"$0\" sleep 600",
                feeding, fed));
        long[] pids = {awaitArgv0(piping), awaitArgv0(teeing), awaitArgv0(feeding), awaitArgv0(fed)};

        HostProcessTable.Look look = table.observe();

        long tee = only(look, pids[1]).stdinPipe();
        long server = only(look, pids[3]).stdinPipe();
        assertEquals(Set.of(tee), only(look, pids[0]).pipesWritten(), "it writes the tee's stdin");
        assertEquals(Set.of(tee), only(look, pids[0]).pipesOutput(), "through its stdout");
        assertEquals(Set.of(server), only(look, pids[2]).pipesWritten(), "it writes the server's stdin");
        assertEquals(Set.of(), only(look, pids[2]).pipesOutput(), "through fd 5");
    }

    /**
     * The fleet's own processes are found on the command line as read, as its observer finds them: a pattern
     * may name what every shown line masks (a PostgreSQL registry's user), and the argv kept stays masked.
     */
    @Test
    void theFleetsProcessesAreMatchedOnTheCommandLineAsReadTheArgvKeptMasked() throws Exception {
        String marker = MarkerProcess.marker();
        // A bash that waits for its sleep (the ': ' keeps it from exec'ing it) holds the URL as its last argument.
        Process child = start(new ProcessBuilder("bash", "-c", "exec -a \"$0\" bash -c 'sleep 600; :' \"$1\"", marker,
                "postgresql://fleet@db/x").redirectOutput(ProcessBuilder.Redirect.DISCARD));
        awaitArgv0(marker);

        // Until the bash's fork has exec'd its sleep, that fork shows the bash's argv too: a moment a loaded host
        // stretches (ci53). A look after it sees the one process.
        HostProcessTable.Look[] look = new HostProcessTable.Look[1];
        Patience.await(START, POLL, () -> (look[0] = table.observe(line -> line.startsWith(marker + " ")
                && line.endsWith(" postgresql://fleet@db/x"))).fleetPids().equals(Set.of(child.pid())),
                "a look that matches the bash alone, not the fork of its sleep");

        assertEquals(Set.of(child.pid()), look[0].fleetPids());
        assertEquals(List.of(marker, "-c", "sleep 600; :", "postgresql://***@db/x"),
                only(look[0], child.pid()).argv());
    }

    @Test
    void aChildReadingDevNullReadsNoPipeAndWritesItsStdoutToOne() throws Exception {
        String marker = MarkerProcess.marker();
        Process child = start(new ProcessBuilder("bash", "-c", "exec -a \"$0\" sleep 600", marker)
                .redirectInput(new File("/dev/null")));
        awaitArgv0(marker);

        HostProcess process = only(table.observe(), child.pid());

        assertNull(process.stdinPipe());
        assertFalse(process.stdinTerminal());
        assertTrue(process.stdoutPipe());
    }

    @Test
    void aChildOfAPtyHasATerminalOnStdin() throws Exception {
        String marker = MarkerProcess.marker();
        // script(1) runs its command on a new pty, as a terminal emulator would: the sleep is started by hand.
        Path scriptErrors = Files.createTempFile("fleet-script", ".err");
        ProcessBuilder onPty = new ProcessBuilder("script", "-qfc", "exec -a " + marker + " sleep 600", "/dev/null")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(scriptErrors.toFile());
        // script(1) runs its command with $SHELL, else sh: CI gives none, and dash's exec has no -a.
        onPty.environment().put("SHELL", "/bin/bash");
        Process script = start(onPty);
        long[] found = {-1};
        Patience.await(START, POLL, () -> (found[0] = ProcEntries.withArgv0(marker)) > 0 || !script.isAlive(),
                marker + " never started");
        // A host without a pty to give (a container with no devpts) is no host this test can speak of.
        assumeTrue(found[0] > 0, () -> "script(1) could not run a command on a pty here (exit "
                + script.exitValue() + "): " + firstLine(scriptErrors));
        Files.deleteIfExists(scriptErrors);
        this.found.add(found[0]);
        long pid = found[0];

        HostProcess process = only(table.observe(), pid);

        assertTrue(process.stdinTerminal(), () -> "fd 0 of " + pid + ": " + ProcEntries.link(pid, 0));
        assertNull(process.stdinPipe());
        assertEquals(pid, process.session(), "script gives the command a session of its own");
    }

    /**
     * A pipeline whose right side double-forks: the marked sleep reads the pipe (explicitly, since bash gives a
     * background job {@code /dev/null}) with its parent gone, while the left side, another process, writes it.
     * The JVM cannot be that writer here: it closes a child's stdin once the child has exited.
     */
    @Test
    void aDoubleForkedChildIsAdoptedAndItsStdinWriterSeenUntilItIsGone() throws Exception {
        String marker = MarkerProcess.marker();
        String writerMarker = MarkerProcess.marker();
        start(new ProcessBuilder("bash", "-c", "(exec -a \"$1\" sleep 600) | (exec -a \"$0\" sleep 600 0<&0 &)",
                marker, writerMarker).redirectOutput(ProcessBuilder.Redirect.DISCARD));
        long pid = awaitArgv0(marker);
        long writer = awaitArgv0(writerMarker);
        Patience.await(START, POLL, () -> ProcessHandle.of(pid).flatMap(ProcessHandle::parent)
                .map(parent -> !parent.info().command().orElse("").endsWith("bash")).orElse(true),
                "the subshell that forked " + pid + " exits");

        HostProcessTable.Look look = table.observe();

        HostProcess orphan = only(look, pid);
        Set<Long> adopters = new HashSet<>(Set.of(1L));
        for (Optional<ProcessHandle> up = ProcessHandle.current().parent(); up.isPresent(); up = up.get().parent()) {
            adopters.add(up.get().pid()); // a subreaper above the tests adopts it instead of pid 1
        }
        assertTrue(adopters.contains(orphan.parentPid()), () -> "parent " + orphan.parentPid() + " adopts no orphan");
        assertNotNull(orphan.stdinPipe(), "it reads the pipeline's pipe");
        assertTrue(only(look, writer).stdoutPipe());
        List<Long> writers = look.processes().stream().filter(p -> p.pipesWritten().contains(orphan.stdinPipe()))
                .map(HostProcess::pid).toList();
        assertEquals(List.of(writer), writers, "the pipeline's left side alone writes it");

        ProcessHandle.of(writer).ifPresent(ProcessHandle::destroyForcibly);
        Patience.await(START, POLL, () -> ProcessHandle.of(writer).map(h -> !h.isAlive()).orElse(true), "writer ends");
        HostProcessTable.Look after = table.observe();

        assertEquals(orphan.stdinPipe(), only(after, pid).stdinPipe());
        assertTrue(after.processes().stream().noneMatch(p -> p.pipesWritten().contains(orphan.stdinPipe())),
                "once its writer is gone, nobody writes the orphan's stdin");
    }

    @Test
    void aSetsidChildLeadsItsOwnSessionAndGroup() throws Exception {
        String marker = MarkerProcess.marker();
        start(new ProcessBuilder("setsid", "bash", "-c", "exec -a \"$0\" sleep 600", marker)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        long pid = awaitArgv0(marker);

        HostProcessTable.Look look = table.observe();

        HostProcess process = only(look, pid);
        assertEquals(pid, process.session());
        assertEquals(pid, process.processGroup());
        assertNotEquals(only(look, ownPid).session(), process.session());
    }

    @Test
    void secretsInTheArgvAreMaskedArgumentByArgument() {
        String marker = MarkerProcess.marker();
        try (MarkerProcess child = MarkerProcess.withArguments(marker, SecretArguments.array())) {
            HostProcess process = only(table.observe(), child.pid());

            assertEquals(marker + " -c read -t 600 " + marker + " " + SecretArguments.MASKED, process.commandLine());
            assertEquals(List.of("--token", "***", "GITEA_TOKEN=***"), process.argv().subList(4, 7));
            assertEquals(SecretArguments.ARGUMENTS.size() + 4, process.argv().size(), "arguments stay apart");
            SecretArguments.assertHidden(process.commandLine(), "the host look's argv");
        }
    }

    @Test
    void aZombieIsNoProcess() throws Exception {
        String marker = MarkerProcess.marker();
        // The background child outlives the exec, so the sleep that replaces bash (and never waits) is its parent.
        Process parent = start(new ProcessBuilder("bash", "-c", "(exec -a \"$0\" sleep 0.3) & exec sleep 600", marker)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        long[] zombie = {-1};
        Patience.await(START, POLL, () -> (zombie[0] = ProcEntries.zombieChildOf(parent.pid())) > 0,
                "a zombie child of " + parent.pid());

        HostProcessTable.Look look = table.observe();

        assertTrue(look.processes().stream().anyMatch(p -> p.pid() == parent.pid()));
        assertTrue(look.processes().stream().noneMatch(p -> p.pid() == zombie[0]), "zombie " + zombie[0] + " listed");
    }

    private Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        children.add(process);
        return process;
    }

    private static HostProcess only(HostProcessTable.Look look, long pid) {
        List<HostProcess> matching = look.processes().stream().filter(p -> p.pid() == pid).toList();
        assertEquals(1, matching.size(), () -> "pid " + pid + " in " + look.processes().size() + " processes, "
                + look.warnings());
        return matching.get(0);
    }

    /** Waits for the one process whose argv[0] is {@code marker}, and remembers it to kill it. */
    private long awaitArgv0(String marker) throws InterruptedException {
        long[] pid = {-1};
        Patience.await(START, POLL, () -> (pid[0] = ProcEntries.withArgv0(marker)) > 0, marker + " never started");
        found.add(pid[0]);
        return pid[0];
    }

    private static String firstLine(Path file) {
        try (var lines = Files.lines(file)) {
            return lines.findFirst().orElse("(nothing on stderr)");
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(stderr unreadable)";
        }
    }

    private static void killTree(ProcessHandle handle) {
        handle.descendants().forEach(ProcessHandle::destroyForcibly);
        handle.destroyForcibly();
    }
}
