package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole tree, none missed (the contract, §12.1): a wrapped server that ignores EOF and SIGTERM,
 * with a grandchild in its own process group and a daemon that left both (fork, setsid, fork), is gone
 * with all of them after EOF and after SIGTERM, within the contract's bounds (scaled), and its row is
 * stopped; {@code fleet} killed with SIGKILL takes its child with it. The member's stderr never shows
 * the command's secret.
 */
class RelayWholeTreeIT {

    private static final Duration AFTER_EOF = Duration.ofSeconds(2 + 2);
    private static final Duration AFTER_SIGNAL = Duration.ofSeconds(1 + 2);
    private static final String SECRET = "hunter2-not-for-logs";

    @TempDir
    Path dir;

    /** Whatever a test started and the member might not have ended: killed after it, so no test leaks. */
    private final List<Long> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void afterEofNothingOfAStubbornTreeRemainsNotEvenADoubleForkedDaemon() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = startStubbornTree(registry)) {
            long[] tree = awaitTreeWithDaemon(registry, member);
            member.closeStdinAt();
            RelayLifecycleIT.assertEnded(member, AFTER_EOF, 0, tree);
            String stderr = member.stderrText();
            assertTrue(stderr.contains("SIGKILL"), member.diagnosis(20));
            assertFalse(stderr.contains(SECRET), "the command's secret reaches fleet's stderr: " + stderr);
            assertTrue(stderr.contains("--token ***"), member.diagnosis(20));
            RelayLifecycleIT.assertStopped(registry);
        }
    }

    @Test
    void afterSigtermNothingOfAStubbornTreeRemainsNotEvenADoubleForkedDaemon() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = startStubbornTree(registry)) {
            long[] tree = awaitTreeWithDaemon(registry, member);
            member.process().toHandle().destroy(); // SIGTERM alone: Process.destroy would close stdin too
            RelayLifecycleIT.assertEnded(member, AFTER_SIGNAL, 143, tree);
            assertFalse(member.stderrText().contains(SECRET), member.diagnosis(20));
            RelayLifecycleIT.assertStopped(registry);
        }
    }

    /** Nobody can mark the row then: it stays as it was, stale once its pid is dead (§12.1). */
    @Test
    void fleetKilledWithSigkillTakesItsChildWithIt() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = startStubbornTree(registry)) {
            long[] tree = awaitTreeWithDaemon(registry, member);
            member.process().destroyForcibly();
            assertTrue(member.exitsWithin(Patience.scaled(AFTER_SIGNAL).toMillis()), member.diagnosis(20));
            // Only the child has the parent-death signal; its grandchild and the daemon are orphans then.
            Patience.await(Duration.ofSeconds(2), Duration.ofMillis(20), () -> !WrappedMembers.runs(tree[0]),
                    "the child (pid " + tree[0] + ") to die with fleet; " + member.diagnosis(20));
            assertEquals("running", new dev.fleet.registry.sqlite.SqliteRegistryReader(registry).readAll().rows()
                    .get(0).status(), "nobody marked the row");
        }
    }

    /**
     * {@code fleet serve} wrapping a bash that ignores SIGTERM (and so do its children: an ignored signal
     * stays ignored across exec) and never reads stdin; it starts a grandchild {@code sleep} in its own
     * process group, and a {@code sleep} that a subshell's setsid'd {@code sh} leaves behind (fork, setsid,
     * fork), then loops. Its argv carries a secret option.
     */
    private ServeProcess startStubbornTree(Path registry) throws IOException {
        String script = "trap '' TERM; sleep 600 & echo $! > " + dir.resolve("grandchild")
                + "; (setsid sh -c 'sleep 600 & echo $! > " + dir.resolve("daemon") + "' &); echo $$ > "
                + dir.resolve("child") + "; while :; do sleep 1; done";
        return ServeProcess.start(WrappedMembers.wrapping(registry, "prgs-author",
                List.of("bash", "-c", script, "stubborn-server", "--token", SECRET)), "prgs-author", Map.of());
    }

    /**
     * Once the row runs: the child's, the grandchild's and the daemon's pids, the daemon adopted by the
     * member (it left the child's session: a look at the child's descendants alone would miss it).
     */
    private long[] awaitTreeWithDaemon(Path registry, ServeProcess member) throws InterruptedException {
        TestFleets.awaitRunningRows(registry, 1);
        long child = WrappedMembers.awaitPid(dir.resolve("child"));
        long grandchild = WrappedMembers.awaitPid(dir.resolve("grandchild"));
        long daemon = WrappedMembers.awaitPid(dir.resolve("daemon"));
        started.addAll(List.of(child, grandchild, daemon));
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), () -> parentOf(daemon) == member.pid(),
                "the daemon (pid " + daemon + ") to be adopted by the member (pid " + member.pid() + "), its parent "
                        + parentOf(daemon));
        assertNotEquals(sessionOf(child), sessionOf(daemon), "the daemon left the child's session");
        assertEquals(sessionOf(child), sessionOf(grandchild), "the grandchild stayed in the child's session");
        return new long[] {child, grandchild, daemon};
    }

    private static long parentOf(long pid) {
        return statField(pid, 1);
    }

    private static long sessionOf(long pid) {
        return statField(pid, 3);
    }

    /** Field {@code index} of {@code /proc/PID/stat} counted after the command name (0: state, 1: ppid, 3: session). */
    private static long statField(long pid, int index) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[index]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
