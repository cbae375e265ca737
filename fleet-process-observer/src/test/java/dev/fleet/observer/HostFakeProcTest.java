package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.host.HostProcess;
import dev.fleet.domain.port.out.HostProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet host}'s look against a hand-made {@code /proc}: fd links are dangling symlinks whose targets read
 * as the kernel's do ({@code pipe:[N]}, {@code /dev/pts/3}), fdinfo files say how each fd was opened. The cases a
 * live host rarely shows on demand: an odd comm, a dead pid, a process whose fds cannot be listed, the bounds.
 */
@EnabledOnOs(OS.LINUX)
class HostFakeProcTest {

    private static final long OWN_PID = 4242;
    private static final long BOOT_SECONDS = 1_700_000_000L;
    private static final String BOOT_ID = "0a1b2c3d-0000-4000-8000-000000000001";

    @TempDir
    Path proc;

    @Test
    void readsEachFieldAfterTheLastParenthesisAndTheOwnerAndMemoryFromStatus() throws IOException {
        standardProc();
        process(100, "node\0server.js\0--port\0 8080\0", stat(100, "we ird) (name", 1, 100, 90, 12345), 1000, 2048);

        HostProcess process = byPid(look()).get(100L);

        assertEquals(1, process.parentPid());
        assertEquals(100, process.processGroup());
        assertEquals(90, process.session());
        assertEquals(1000, process.uid());
        assertEquals(12345, process.startTicks());
        assertEquals(Instant.ofEpochMilli(BOOT_SECONDS * 1000 + 123_450), process.startedAt());
        assertEquals(List.of("node", "server.js", "--port", " 8080"), process.argv());
        assertEquals(2048L * 1024, process.memoryBytes());
    }

    @Test
    void findsWhoWritesTheStdinPipeByTheFlagsEachFdWasOpenedWith() throws IOException {
        standardProc();
        process(200, "client\0", stat(200, "client", 1, 200, 200, 10), 0, 10);
        process(201, "server\0", stat(201, "server", 200, 200, 200, 20), 0, 10);
        process(202, "reader\0", stat(202, "reader", 1, 202, 202, 30), 0, 10);
        fd(201, 0, "pipe:[77]", "0");
        fd(201, 1, "pipe:[78]", "01");
        fd(200, 5, "pipe:[77]", "02000001"); // O_WRONLY|O_CLOEXEC: the writing end
        fd(200, 6, "pipe:[78]", "02000000"); // the server's stdout, read: no stdin reads it
        fd(200, 7, "pipe:[99]", "01");       // written, but no stdin reads it
        fd(202, 3, "pipe:[77]", "0100000");  // read-only: a reader, no writer
        fd(202, 4, "pipe:[77]", "02");       // O_RDWR writes too

        Map<Long, HostProcess> processes = byPid(look());

        HostProcess server = processes.get(201L);
        assertEquals(77L, server.stdinPipe());
        assertTrue(server.stdoutPipe());
        assertFalse(server.stdinTerminal());
        assertEquals(Set.of(), server.pipesWritten(), "its own stdin is opened read-only");
        assertEquals(Set.of(77L), processes.get(200L).pipesWritten());
        assertEquals(Set.of(77L), processes.get(202L).pipesWritten());
        assertNull(processes.get(200L).stdinPipe());
    }

    @Test
    void aTerminalOnStdinIsAnyOfTheKernelsTerminalDevices() throws IOException {
        standardProc();
        List<String> terminals = List.of("/dev/pts/3", "/dev/tty1", "/dev/tty", "/dev/console");
        for (int i = 0; i < terminals.size(); i++) {
            process(300 + i, "sh\0", stat(300 + i, "sh", 1, 300, 300, 1), 0, 1);
            fd(300 + i, 0, terminals.get(i), "02");
        }
        process(310, "sh\0", stat(310, "sh", 1, 310, 310, 1), 0, 1);
        fd(310, 0, "/dev/null", "0");

        Map<Long, HostProcess> processes = byPid(look());

        for (int i = 0; i < terminals.size(); i++) {
            assertTrue(processes.get(300L + i).stdinTerminal(), terminals.get(i));
        }
        assertFalse(processes.get(310L).stdinTerminal());
        assertNull(processes.get(310L).stdinPipe());
    }

    @Test
    void zombiesDeadPidsAndOtherEntriesAreNoProcesses() throws IOException {
        standardProc();
        process(400, "", stat(400, "gone", 1, 400, 400, 1).replace(") S ", ") Z "), 0, 0);
        process(401, "", stat(401, "dead", 1, 401, 401, 1).replace(") S ", ") X "), 0, 0);
        Files.createDirectories(proc.resolve("402")); // listed, gone before its stat was read
        // a kernel thread (PF_KTHREAD in field 9): no argv, no memory, nothing more read of it
        process(403, "", ProcEntries.withFlags(stat(403, "kthreadd", 0, 0, 0, 1), ProcEntries.KERNEL_THREAD_FLAGS), 7, 5);

        Map<Long, HostProcess> processes = byPid(look());

        assertEquals(Set.of(OWN_PID, 403L), processes.keySet());
        assertEquals(List.of(), processes.get(403L).argv());
        assertEquals(0, processes.get(403L).memoryBytes());
        assertEquals(0, processes.get(403L).uid());
    }

    /**
     * A main thread that is Z while its status counts another thread: the process lives, though its threads
     * cannot be listed here. It is kept, its empty fd/ read as unread files (not as "holds no pipe").
     */
    @Test
    void aProcessWhoseMainThreadAloneExitedIsKeptThoughItsThreadsCannotBeListed() throws IOException {
        standardProc();
        zombieLeaderOfTwoThreads(410, "server");

        HostProcess process = byPid(look()).get(410L);

        assertNotNull(process, "alive: its status counts a thread besides the exited main one");
        assertEquals(OWN_PID, process.parentPid());
        assertFalse(process.fdsRead(), "its files were not read");
    }

    /**
     * SIGKILLed while it frees its memory: its last thread still R, exiting, with no memory. It runs nothing and no
     * signal changes that: no process, as a zombie is none.
     */
    @Test
    void aProcessKilledWhileItFreesItsMemoryIsNoProcess() throws IOException {
        standardProc();
        Path status = zombieLeaderOfTwoThreads(420, "java");
        ProcEntries.fakeThread(proc, 420, 420, "", stat(420, "java", OWN_PID, 420, 420, 1).replace(") S ", ") Z "));
        ProcEntries.fakeThread(proc, 420, 421, "", ProcEntries.withFlags(stat(421, "GC Thread#0", OWN_PID, 420, 420, 2)
                .replace(") S ", ") R "), ProcEntries.EXITING_FLAGS));
        Files.copy(status, proc.resolve("420/task/421/status"));

        assertEquals(Set.of(OWN_PID), byPid(look()).keySet());
    }

    @Test
    void aProcessWhoseFdsCannotBeListedReportsNoPipesAndNoTerminal() throws IOException {
        standardProc();
        process(500, "other\0", stat(500, "other", 1, 500, 500, 1), 33, 1);
        Files.delete(proc.resolve("500/fd"));
        Files.writeString(proc.resolve("500/fd"), "not a directory: listing it fails as EACCES would");

        HostProcess process = byPid(look()).get(500L);

        assertNull(process.stdinPipe());
        assertFalse(process.stdinTerminal());
        assertFalse(process.stdoutPipe());
        assertEquals(Set.of(), process.pipesWritten());
        assertEquals(33, process.uid());
    }

    @Test
    void eachProcessSaysWhetherAllItsOpenFilesWereRead() throws IOException {
        standardProc();
        process(510, "mine\0", stat(510, "mine", 1, 510, 510, 1), 1000, 1);
        fd(510, 0, "pipe:[5]", "0");
        process(511, "other\0", stat(511, "other", 1, 511, 511, 1), 33, 1);
        Files.delete(proc.resolve("511/fd"));
        Files.writeString(proc.resolve("511/fd"), "not a directory: listing it fails as EACCES would");
        process(512, "", ProcEntries.withFlags(stat(512, "kthreadd", 0, 0, 0, 1), ProcEntries.KERNEL_THREAD_FLAGS), 0, 0);
        process(513, "busy\0", stat(513, "busy", 1, 513, 513, 1), 1000, 1);
        for (int fd = 2; fd < 8; fd++) {
            fd(513, fd, "/dev/null", "0");
        }

        Map<Long, HostProcess> whole = byPid(look());
        assertTrue(whole.get(510L).fdsRead());
        assertFalse(whole.get(511L).fdsRead(), "another user's: a holder there would go unseen");
        assertTrue(whole.get(512L).fdsRead(), "a kernel thread holds no file");
        assertTrue(whole.get(513L).fdsRead());

        Map<Long, HostProcess> cut = byPid(new ProcfsHostProcessTable(proc, OWN_PID, 100, 3, 1_000_000).observe());
        assertFalse(cut.get(513L).fdsRead(), "the bound left some of its fds unread");
    }

    @Test
    void aProcessWhoseStatShowsNoStartIsLeftOutAndSaidSo() throws IOException {
        standardProc();
        process(520, "server\0", "520 (server) S 1 520 520\n", 1000, 1);

        HostProcessTable.Look look = look();

        assertFalse(byPid(look).containsKey(520L), "without a start, nothing could guard a line that stops it");
        assertTrue(look.warnings().contains("1 processes were left out: their /proc/PID/stat showed no start"),
                look.warnings()::toString);
    }

    @Test
    void theBoundsCutProcessesAndFdsAndSaySo() throws IOException {
        standardProc();
        for (int pid = 600; pid < 610; pid++) {
            process(pid, "p\0", stat(pid, "p", 1, pid, pid, 1), 0, 1);
        }
        process(700, "server\0", stat(700, "server", 1, 700, 700, 1), 0, 1);
        fd(700, 0, "pipe:[5]", "0");
        process(701, "client\0", stat(701, "client", 1, 701, 701, 1), 0, 1);
        for (int fd = 0; fd < 5; fd++) {
            fd(701, fd, "/dev/null", "0");
        }
        fd(701, 9, "pipe:[5]", "01");

        HostProcessTable.Look few = new ProcfsHostProcessTable(proc, OWN_PID, 5, 4096, 1_000_000).observe();
        assertEquals(5, few.processes().size());
        assertTrue(few.warnings().stream().anyMatch(w -> w.contains("more than 5 processes")), few.warnings()::toString);

        // Which 3 of 701's 6 fds are read depends on the listing's order (procfs: ascending; a temporary
        // directory: any), so only the count is checked; the look's own bound of none shows what a cut loses.
        HostProcessTable.Look cut = new ProcfsHostProcessTable(proc, OWN_PID, 100, 3, 1_000_000).observe();
        assertEquals(5L, byPid(cut).get(700L).stdinPipe());
        assertTrue(cut.warnings().stream().anyMatch(w -> w.startsWith("1 processes had more open files")),
                cut.warnings()::toString);
        HostProcessTable.Look none = new ProcfsHostProcessTable(proc, OWN_PID, 100, 4096, 0).observe();
        assertNull(byPid(none).get(700L).stdinPipe());
        assertEquals(Set.of(), byPid(none).get(701L).pipesWritten());
        assertTrue(none.warnings().stream().anyMatch(w -> w.startsWith("2 processes had more open files")),
                none.warnings()::toString);

        HostProcessTable.Look whole = new ProcfsHostProcessTable(proc, OWN_PID, 100, 4096, 1_000_000).observe();
        assertEquals(Set.of(5L), byPid(whole).get(701L).pipesWritten());
    }

    /** Any user may start processes of a 6 MiB argv: what is kept of them is bounded, each and in all. */
    @Test
    void argvsBeyondTheBoundsAreNotKeptAndSaySo() throws IOException {
        standardProc();
        process(800, "huge\0" + "x".repeat(HostLook.MAX_ARGV_BYTES) + "\0", stat(800, "huge", 1, 800, 800, 1), 0, 1);
        for (int pid = 801; pid <= 803; pid++) {
            process(pid, "small\0" + "y".repeat(94) + "\0", stat(pid, "small", 1, pid, pid, 1), 0, 1);
        }
        process(804, "mine\0" + "z".repeat(95) + "\0", stat(804, "mine", 1, 804, 804, 1), 1000, 1);

        HostProcessTable.Look look = new ProcfsHostProcessTable(proc, OWN_PID, 100, 4096, 1_000_000, 250).observe();

        Map<Long, HostProcess> processes = byPid(look);
        assertEquals(List.of(), processes.get(800L).argv(), "too long to keep: it matches nothing");
        assertEquals(2, processes.values().stream().filter(process -> process.argv().contains("small")).count(),
                "two of other users' argvs of 101 bytes fit their 250 bytes: " + processes);
        assertEquals(List.of("java", "Test"), processes.get(OWN_PID).argv());
        assertEquals(2, processes.get(804L).argv().size(), "this user's own bound, which others cannot spend");
        assertTrue(look.warnings().contains("2 processes' command lines were too long to keep (over 1048576 bytes "
                + "each, or 250 in all, yours or others'): they match no configured server"), look.warnings()::toString);
        HostProcessTable.Look whole = new ProcfsHostProcessTable(proc, OWN_PID, 100, 4096, 1_000_000).observe();
        assertEquals(3, byPid(whole).values().stream().filter(process -> process.argv().contains("small")).count());
    }

    @Test
    void aProcessTableOfAnotherNamespaceShowsNothingAndSaysWhy() throws IOException {
        standardProc();
        HostProcessTable.Look look = new ProcfsHostProcessTable(proc, OWN_PID + 1, 100, 4096, 1_000_000).observe();
        assertEquals(List.of(), look.processes());
        assertEquals(BOOT_ID, look.bootId());
        assertEquals(OWN_PID + 1, look.ownPid());
        assertTrue(look.warnings().stream().anyMatch(w -> w.contains("another pid namespace")), look.warnings()::toString);
    }

    private HostProcessTable.Look look() {
        HostProcessTable.Look look = new ProcfsHostProcessTable(proc, OWN_PID, 65_536, 4096, 1_000_000).observe();
        assertEquals(BOOT_ID, look.bootId());
        assertEquals(OWN_PID, look.ownPid());
        return look;
    }

    private static Map<Long, HostProcess> byPid(HostProcessTable.Look look) {
        return look.processes().stream().collect(Collectors.toMap(HostProcess::pid, Function.identity()));
    }

    private void standardProc() throws IOException {
        Files.createSymbolicLink(proc.resolve("self"), Path.of(Long.toString(OWN_PID)));
        Files.writeString(proc.resolve("stat"), "cpu  1 2 3\nintr 5\nbtime " + BOOT_SECONDS + "\nprocesses 7\n");
        Files.createDirectories(proc.resolve("sys/kernel/random"));
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), BOOT_ID + "\n");
        Files.writeString(proc.resolve("sys/kernel/hostname"), "fake-host\n");
        process(OWN_PID, "java\0Test\0", stat(OWN_PID, "java", 1, OWN_PID, OWN_PID, 1), 1000, 100);
        Files.writeString(proc.resolve(OWN_PID + "/mountinfo"),
                "23 1 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n");
    }

    /** A process directory: cmdline, stat, a status with {@code uid} and {@code VmRSS} (none when negative), an empty fd/. */
    private void process(long pid, String cmdline, String stat, int uid, long residentKb) throws IOException {
        Path directory = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.write(directory.resolve("cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
        Files.writeString(directory.resolve("stat"), stat);
        Files.writeString(directory.resolve("status"), "Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t" + pid
                + "\nUid:\t" + uid + "\t" + (uid + 1) + "\t" + uid + "\t" + uid + "\nGid:\t0\t0\t0\t0\n"
                + (residentKb < 0 ? "" : "VmRSS:\t    " + residentKb + " kB\n") + "Threads:\t1\n");
        Files.createDirectories(directory.resolve("fd"));
        Files.createDirectories(directory.resolve("fdinfo"));
    }

    /** A process whose main thread is Z while its status counts two threads; its status file. */
    private Path zombieLeaderOfTwoThreads(long pid, String comm) throws IOException {
        process(pid, "", stat(pid, comm, OWN_PID, pid, pid, 1).replace(") S ", ") Z "), 0, 0);
        Path status = proc.resolve(pid + "/status");
        Files.writeString(status, Files.readString(status).replace("Threads:\t1", "Threads:\t2"));
        return status;
    }

    /** fd {@code fd} of {@code pid}, a link to {@code target}, opened with the octal {@code flags}. */
    private void fd(long pid, int fd, String target, String flags) throws IOException {
        Path directory = proc.resolve(Long.toString(pid));
        Files.createSymbolicLink(directory.resolve("fd/" + fd), Path.of(target));
        Files.writeString(directory.resolve("fdinfo/" + fd), "pos:\t0\nflags:\t" + flags + "\nmnt_id:\t15\nino:\t77\n");
    }

    /** A stat line shaped like the kernel's: ppid, pgrp and session as fields 4 to 6, {@code starttime} as field 22. */
    static String stat(long pid, String comm, long parent, long group, long session, long startTicks) {
        StringBuilder line = new StringBuilder().append(pid).append(" (").append(comm).append(") S ")
                .append(parent).append(' ').append(group).append(' ').append(session);
        for (int field = 7; field <= 21; field++) {
            line.append(' ').append(field == 9 ? ProcEntries.USER_FLAGS : field * 7);
        }
        line.append(' ').append(startTicks);
        for (int field = 23; field <= 52; field++) {
            line.append(" 0");
        }
        return line.append('\n').toString();
    }
}
