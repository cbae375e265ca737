package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.DefaultSigint;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A wrapping member's life over the whole tree (the contract, §12 and §12.1): whatever ends it, the
 * child and everything it started (a double-forked daemon in a session of its own included) are gone
 * before the row is marked stopped, within 2 s of EOF and 1 s of SIGTERM; the member exits 0 when its
 * client leaves, 143 on SIGTERM, 130 on SIGINT and with the child's status when the child ends; killed
 * with SIGKILL, it takes its child with it; a command that cannot start is one line, exit 2 and no row.
 * Fleet's own stderr never shows a secret of the command. The bounds are the contract's plus a JVM's
 * own exit, scaled for the host's load: never a measurement.
 */
class RelayLifecycleIT {

    /** The contract's bound from EOF (or the child's exit) to the tree gone and the row stopped, plus a JVM's exit. */
    private static final Duration AFTER_EOF = Duration.ofSeconds(2 + 2);
    /** The contract's bound from SIGTERM or SIGINT to the tree gone and the row stopped, plus a JVM's exit. */
    private static final Duration AFTER_SIGNAL = Duration.ofSeconds(1 + 2);

    @TempDir
    Path dir;

    @Test
    void aChildThatIgnoresEofAndSigtermIsKilledWithItsGrandchildOnceTheClientLeaves() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // Ignoring TERM is inherited across exec: the grandchild sleep ignores it too.
        try (ServeProcess member = start(registry, "trap '' TERM; " + tree("while :; do sleep 1; done"))) {
            long[] tree = awaitTree(registry);
            member.closeStdinAt();
            assertEnded(member, AFTER_EOF, 0, tree);
            assertTrue(member.stderrText().contains("SIGKILL"), member.diagnosis(20));
            assertStopped(registry);
        }
    }

    /**
     * A stop signal other than TERM and INT during the teardown that EOF began hurries it, and the exit
     * status stays EOF's (the contract: a later signal leaves the status as it was). Before, SIGHUP went
     * through the JVM's own handler and the member exited 129.
     */
    @Test
    void aSighupDuringTheTeardownOfEofLeavesTheExitStatusZero() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // Ignoring TERM, the tree outlives the first 1.5 s of the teardown: time for the HUP to come during it.
        try (ServeProcess member = start(registry, "trap '' TERM; " + tree("while :; do sleep 1; done"))) {
            long[] tree = awaitTree(registry);
            member.closeStdinAt();
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(10),
                    () -> logged(member, "stdin closed: ending the wrapped server"),
                    "the member to begin its teardown; " + member.diagnosis(20));
            assertEquals(0, new ProcessBuilder("kill", "-HUP", Long.toString(member.pid())).start().waitFor());
            assertEnded(member, AFTER_EOF, 0, tree);
            assertStopped(registry);
        }
    }

    @Test
    void sigtermEndsTheMemberWith143AndTakesTheChildsTreeWithIt() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = start(registry, tree("wait"))) {
            long[] tree = awaitTree(registry);
            member.process().toHandle().destroy(); // SIGTERM alone: Process.destroy would close stdin too
            assertEnded(member, AFTER_SIGNAL, 143, tree);
            assertStopped(registry);
        }
    }

    /**
     * A child that stops reading while its client still writes: the member's pump blocks writing to it,
     * holding the child's stdin, so closing that stdin must not wait for the pump, or SIGTERM would never
     * reach the tree (§12.1's bound is from the signal, whatever the child does with its stdin).
     */
    @Test
    void sigtermEndsTheTreeWhileThePumpIsBlockedWritingToAChildThatStoppedReading() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = start(registry, tree("wait"))) {
            long[] tree = awaitTree(registry);
            byte[] burst = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/flood\"}\n".repeat(20_000)
                    .getBytes(StandardCharsets.UTF_8);
            Thread flood = new Thread(() -> {
                try {
                    member.sendBytes(burst); // ~1 MiB: more than both pipes and the member's buffer hold
                } catch (IOException e) {
                    // the member has gone: the flood ends with it
                }
            }, "flood");
            flood.setDaemon(true);
            flood.start();
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), () -> writesToAFullPipe(member.pid()),
                    "the member's pump to block writing to the child; " + member.diagnosis(20));
            member.process().toHandle().destroy();
            assertEnded(member, AFTER_SIGNAL, 143, tree);
            assertStopped(registry);
        }
    }

    /**
     * A client that stopped reading while the child writes on: the member's pump to the client blocks,
     * holding its stdout, and SIGTERM still ends the tree, marks the row stopped and ends the member,
     * whose last flush to that client is bounded rather than awaited.
     */
    @Test
    void sigtermEndsTheMemberThoughItsClientStoppedReadingStdout() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        String chatter = "while :; do echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                + "\"params\":{\"level\":\"info\",\"data\":\"chatter\"}}'; done";
        ProcessBuilder builder = new ProcessBuilder(WrappedMembers.wrapping(registry, "prgs-author",
                List.of("bash", "-c", tree(chatter))))
                .redirectError(dir.resolve("member.stderr").toFile());
        Process member = builder.start(); // its stdout is never read
        try {
            TestFleets.awaitRunningRows(registry, 1);
            long[] tree = {awaitPid("child"), awaitPid("grandchild")};
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), () -> writesToAFullPipe(member.pid()),
                    "the member's pump to block writing to its client");
            member.toHandle().destroy();
            String stderr = "; stderr: " + dir.resolve("member.stderr");
            assertTrue(member.waitFor(Patience.scaled(AFTER_SIGNAL).toMillis(), TimeUnit.MILLISECONDS),
                    "the member to exit" + stderr);
            assertEquals(143, member.exitValue(), stderr);
            for (long pid : tree) {
                Patience.await(Duration.ofSeconds(2), Duration.ofMillis(20), () -> !WrappedMembers.runs(pid),
                        "pid " + pid + " to be gone" + stderr);
            }
            assertStopped(registry);
        } finally {
            member.destroyForcibly();
        }
    }

    /**
     * SIGTERM as soon as the child runs, while the member is likely still building its MCP server (its
     * relay not yet serving): the tree still ends with the member, which exits 143.
     */
    @Test
    void sigtermWhileTheMemberIsStillStartingEndsTheTreeToo() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = start(registry, tree("wait"))) {
            long[] tree = {awaitPid("child"), awaitPid("grandchild")};
            member.process().toHandle().destroy();
            assertEnded(member, AFTER_SIGNAL, 143, tree);
        }
    }

    /**
     * Another tool holds the registry locked while the member registers (it retries for up to 30 s): SIGTERM, or
     * its client's stdin closing, still ends the tree within the contract's bound and the member exits, all while
     * the registry is still locked; no row it may write says running. Before, the tree lived on until the
     * registration was done, and the member ignored stdin's end until then (the relay audit's find).
     */
    @ParameterizedTest
    @ValueSource(strings = {"SIGTERM", "EOF"})
    void anEndWhileAnotherToolHoldsTheRegistryLockedIsCarriedOutAtOnce(String end) throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        LockedRegistry lock = LockedRegistry.lock(registry);
        try (lock; ServeProcess member = start(registry, "trap '' TERM; " + tree("while :; do sleep 1; done"))) {
            long[] tree = {awaitPid("child"), awaitPid("grandchild")};
            LockedRegistry.awaitRegistering(member.pid(), registry);
            if (end.equals("EOF")) {
                member.closeStdinAt();
                assertEnded(member, AFTER_EOF, 0, tree); // while the registry is still locked
            } else {
                member.process().toHandle().destroy();
                assertEnded(member, AFTER_SIGNAL, 143, tree);
            }
            lock.close();
            List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
            assertTrue(rows.stream().noneMatch(row -> row.status().equals("running")), rows.toString());
        }
    }

    /**
     * A child that writes why it cannot go on and exits at once, while the member still registers (another tool
     * holds the registry locked): what it wrote reaches the client before the member exits with its status. Its
     * stdout was read only once the row was written, so the line was lost (a hostile audit's find).
     */
    @Test
    void whatAChildWroteBeforeExitingWhileTheMemberRegisteredReachesTheClient() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        String said = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\","
                + "\"data\":\"cannot start\"}}";
        LockedRegistry lock = LockedRegistry.lock(registry);
        try (lock; ServeProcess member = start(registry, "echo '" + said + "'; exit 4")) {
            assertEnded(member, AFTER_EOF, 4);
            assertEquals("cannot start", member.next().at("/params/data").asText(), member.diagnosis(20));
        }
    }

    private static boolean logged(ServeProcess member, String text) {
        try {
            return member.stderrText().contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a thread of {@code pid} waits to write to a full pipe (its wait channel: pipe_write, anon_pipe_write). */
    private static boolean writesToAFullPipe(long pid) {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.anyMatch(task -> {
                try {
                    return Files.readString(task.resolve("wchan")).endsWith("pipe_write");
                } catch (IOException gone) {
                    return false;
                }
            });
        } catch (IOException gone) {
            return false;
        }
    }

    /**
     * {@code fleet} started under a child subreaper of another (as when a container's pid 1 is one), and
     * itself one: the child's orphans become its children, which the JDK alone would never reap; a zombie
     * runs nothing and no signal reaches it, so SIGTERM ended the tree, and SIGKILL is not called for.
     */
    @Test
    void anOrphanThatDiedIsGoneThoughNobodyHasReapedIt() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import ctypes").redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(probe.waitFor() == 0, "python3 (the subreaper) is needed");
        Path registry = dir.resolve("registry.sqlite3");
        List<String> subreaper = List.of("python3", "-c", "import ctypes, os, sys; "
                + "ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0); os.execvp(sys.argv[1], sys.argv[1:])");
        try (ServeProcess member = ServeProcess.startUnder(subreaper, registry, "prgs-author", Map.of(), "--", "bash",
                "-c", tree("wait"))) {
            long[] tree = awaitTree(registry);
            member.closeStdinAt();
            assertEnded(member, AFTER_EOF, 0, tree);
            assertTrue(member.stderrText().contains("sending SIGTERM"), member.diagnosis(20));
            assertFalse(member.stderrText().contains("SIGKILL"), member.diagnosis(20));
            assertStopped(registry);
        }
    }

    @Test
    void sigintEndsTheMemberWith130AndItsChild() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // SIGINT at its default disposition, as a shell's foreground job has it (see DefaultSigint).
        try (ServeProcess member = ServeProcess.start(DefaultSigint.command(WrappedMembers.wrapping(registry,
                "prgs-author", List.of("bash", "-c", "echo $$ > " + dir.resolve("child") + "; while :; do sleep 1; done"))),
                "prgs-author", Map.of())) {
            TestFleets.awaitRunningRows(registry, 1);
            long child = awaitPid("child");
            DefaultSigint.requireCaught(member.process().toHandle(), member.diagnosis(20));
            // The JDK sends only TERM and KILL: kill(1) sends the INT a terminal's Ctrl-C would.
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(member.pid())).start().waitFor());
            assertEnded(member, AFTER_SIGNAL, 130, child);
            assertStopped(registry);
        }
    }

    @Test
    void theChildExitingOnItsOwnEndsTheMemberWithTheChildsStatus() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        try (ServeProcess member = start(registry, "sleep 600 & echo $! > " + dir.resolve("grandchild")
                + "; read line; exit 3")) {
            TestFleets.awaitRunningRows(registry, 1);
            long grandchild = awaitPid("grandchild");
            member.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/anything\"}");
            assertEnded(member, AFTER_EOF, 3, grandchild);
            assertStopped(registry);
        }
    }

    @Test
    void aCommandThatCannotStartIsOneLineAndExitTwoWithNothingRegistered() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        FleetJar.Run run = FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString(),
                "--roster", TestFleets.roster(registry).toString(), "--repository-root",
                TestFleets.repository(registry).toString(), "--", "no-such-server-command-here", "--stdio");
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(List.of("fleet: cannot start 'no-such-server-command-here': not found on PATH"), run.stderrLines());
        assertEquals("", run.stdout());
        assertTrue(!Files.exists(registry) || new SqliteRegistryReader(registry).readAll().rows().isEmpty(),
                "no row is written");
    }

    @Test
    void aWrappedServerIsServedOverStdioOnlyAndOnlyAfterTheDoubleDash() {
        Path registry = dir.resolve("registry.sqlite3");
        String roster = TestFleets.roster(registry).toString();
        FleetJar.Run http = FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString(),
                "--roster", roster, "--transport", "http", "--port", "0", "--", "cat");
        assertEquals(2, http.exitCode(), http.stderr());
        assertTrue(http.stderr().contains("stdio only"), http.stderr());
        FleetJar.Run noDashes = FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString(),
                "--roster", roster, "cat");
        assertEquals(2, noDashes.exitCode(), noDashes.stderr());
        assertTrue(noDashes.stderr().contains("after --"), noDashes.stderr());
        FleetJar.Run wordBeforeDashes = FleetJar.run("serve", "--profile", "prgs-author", "--registry",
                registry.toString(), "--roster", roster, "cat", "--", "/bin/true");
        assertEquals(2, wordBeforeDashes.exitCode(), wordBeforeDashes.stderr());
        assertTrue(wordBeforeDashes.stderr().contains("unexpected argument 'cat'"), wordBeforeDashes.stderr());
        FleetJar.Run nothingAfterDashes = FleetJar.run("serve", "--profile", "prgs-author", "--registry",
                registry.toString(), "--roster", roster, "--");
        assertEquals(2, nothingAfterDashes.exitCode(), nothingAfterDashes.stderr());
        assertTrue(nothingAfterDashes.stderr().contains("nothing to start after --"), nothingAfterDashes.stderr());
        assertTrue(!Files.exists(registry) || new SqliteRegistryReader(registry).readAll().rows().isEmpty(),
                "no row is written");
    }

    /**
     * A command the system refuses to execute once the launchers reach it (a script whose interpreter is
     * missing) is a start that failed, as one that is not found: exit 2 and no row, not a member that
     * registers and then passes on its child's 127.
     */
    @Test
    void aCommandTheSystemCannotExecuteIsExitTwoWithNothingRegistered() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid"))
                || Files.isExecutable(Path.of("/usr/bin/setpriv")), "the launchers' own refusal needs util-linux");
        Path registry = dir.resolve("registry.sqlite3");
        Path script = dir.resolve("no-interpreter.sh");
        Files.writeString(script, "#!/no/such/interpreter\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        FleetJar.Run run = FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString(),
                "--roster", TestFleets.roster(registry).toString(), "--repository-root",
                TestFleets.repository(registry).toString(), "--", script.toString());
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals("fleet: cannot start '" + script + "': the system could not execute it (exit 127; the line "
                + "above says why)", run.stderrLines().get(run.stderrLines().size() - 1), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(!Files.exists(registry) || new SqliteRegistryReader(registry).readAll().rows().isEmpty(),
                "no row is written");
    }

    private ServeProcess start(Path registry, String script) throws Exception {
        return ServeProcess.start(WrappedMembers.wrapping(registry, "prgs-author", List.of("bash", "-c", script)),
                "prgs-author", Map.of());
    }

    /** A shell script that starts a grandchild sleep, writes its own pid and the grandchild's, then runs {@code rest}. */
    private String tree(String rest) {
        return "sleep 600 & echo $! > " + dir.resolve("grandchild") + "; echo $$ > " + dir.resolve("child") + "; " + rest;
    }

    /** Once the member's row runs: the pids of the child and the grandchild that {@link #tree} wrote. */
    private long[] awaitTree(Path registry) throws InterruptedException {
        TestFleets.awaitRunningRows(registry, 1);
        return new long[] {awaitPid("child"), awaitPid("grandchild")};
    }

    private long awaitPid(String name) throws InterruptedException {
        return WrappedMembers.awaitPid(dir.resolve(name));
    }

    /** The member exited with {@code status} within {@code bound} (scaled), and none of {@code pids} runs. */
    static void assertEnded(ServeProcess member, Duration bound, int status, long... pids) throws Exception {
        assertTrue(member.exitsWithin(Patience.scaled(bound).toMillis()), member.diagnosis(20));
        assertEquals(status, member.process().exitValue(), member.diagnosis(20));
        for (long pid : pids) {
            assertGone(pid, member);
        }
    }

    /** Gone, or at most a zombie nobody has reaped yet: no process of that pid runs. */
    static void assertGone(long pid, ServeProcess member) throws Exception {
        Patience.await(Duration.ofSeconds(2), Duration.ofMillis(20), () -> !WrappedMembers.runs(pid),
                "pid " + pid + " to be gone; " + member.diagnosis(20));
    }


    static void assertStopped(Path registry) {
        List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
        assertEquals(1, rows.size(), rows.toString());
        assertEquals("stopped", rows.get(0).status(), rows.toString());
        assertFalse(rows.get(0).stoppedAt() == null || rows.get(0).stoppedAt().isBlank(), rows.toString());
    }
}
