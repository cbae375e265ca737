package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.testing.Patience;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The whole stop script: its shape, and run with {@code sh}: it refuses another boot and ends the strays on this one. */
class StopScriptTest {

    /** The lines a script may have besides comments and its stop line. */
    static final Pattern BOOT_CHECK = Pattern.compile("\\[ \"\\$\\(tr A-F a-f </proc/sys/kernel/random/boot_id "
            + "2>/dev/null\\)\" = '[0-9a-f-]+' \\] \\|\\| \\{ echo 'fleet host: this script was made on boot [0-9a-f-]+; "
            + "not run on another boot' >&2; exit 1; \\}");
    static final String UNKNOWN_BOOT = "echo 'fleet host: the boot was unknown when this script was made; not run' >&2; exit 1";

    /** The flag of a kernel thread in {@code /proc/PID/stat} field 9. */
    private static final long PF_KTHREAD = 0x200000;

    private Process sleeper;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void end() {
        if (sleeper != null) {
            sleeper.destroyForcibly();
        }
        started.forEach(Process::destroyForcibly);
    }

    /** Every line of {@code script} is its shebang, a comment of one line, the boot check or the stop line. */
    static void assertShape(String script) {
        String[] lines = script.split("\n", -1);
        assertEquals("#!/bin/sh", lines[0]);
        assertEquals("", lines[lines.length - 1], "it ends with a newline");
        for (int i = 1; i < lines.length - 1; i++) {
            String line = lines[i];
            boolean fits = line.startsWith("# ") && line.chars().noneMatch(c -> c < 0x20 || c >= 0x7f && c <= 0x9f
                    || c == 0x2028 || c == 0x2029)
                    || BOOT_CHECK.matcher(line).matches() || line.equals(UNKNOWN_BOOT)
                    || StopLineTest.SHAPE.matcher(line).matches();
            assertTrue(fits, "line " + i + " is not one a script may hold: " + line);
        }
    }

    private static StopScript.Stray stray(long pid, long ticks, String command) {
        return new StopScript.Stray("orphaned", "(no client)", "evil\nname", command, List.of(new StopTarget(pid, ticks)));
    }

    @Test
    void itNamesTheBootAndEachStrayInOneLineComments() {
        String script = StopScript.of(" 0F3C9D2E-1b7a-4c55-9e0d-2a6b8f1c3d4e\n",
                List.of(stray(10, 20, "node\n/x.js $(rm -rf ~) '; reboot #\u2028\u009b"), stray(11, 21, "npx y")));

        assertShape(script);
        assertTrue(script.startsWith("#!/bin/sh\n# fleet host: the guarded stop script of 2 strays, made on boot "
                + "0f3c9d2e-1b7a-4c55-9e0d-2a6b8f1c3d4e\n"), script);
        assertTrue(script.contains("# orphaned (no client) evil?name: pids 10: node?/x.js $(rm -rf ~) '; reboot #??\n"),
                script);
        assertTrue(script.contains(" 10:20 11:21;"), "one stop line for all: " + script);
        assertEquals(1, script.split("sleep 2", -1).length - 1, "one wait for all");
    }

    @Test
    void anUnknownBootMakesAScriptThatRefusesAndNoStrayMakesOneThatDoesNothing() {
        String unknown = StopScript.of("", List.of(stray(10, 20, "x")));
        assertShape(unknown);
        assertTrue(unknown.contains(UNKNOWN_BOOT), unknown);
        assertShape(StopScript.of("'; rm -rf / #", List.of(stray(10, 20, "x"))));

        String none = StopScript.of(HostFixture.BOOT_ID, List.of());
        assertShape(none);
        assertFalse(none.contains("kill"), none);
    }

    private static int run(String script) throws Exception {
        Process sh = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(sh.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS), "the script ended");
        return sh.exitValue();
    }

    private static String thisBoot() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip().toUpperCase(Locale.ROOT);
    }

    @Test
    void itRefusesAnotherBootAndEndsTheStraysOnThisOne() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/sys/kernel/random/boot_id")), "a boot id to compare");
        sleeper = new ProcessBuilder("sleep", "300").start();
        List<StopScript.Stray> strays = List.of(stray(sleeper.pid(), StopLineTest.startTicks(sleeper.pid()), "sleep 300"));

        assertEquals(1, run(StopScript.of(HostFixture.BOOT_ID, strays)), "made on another boot");
        assertTrue(sleeper.isAlive());
        assertEquals(0, run(StopScript.of(thisBoot(), strays)), "made on this boot, read in capitals");
        assertTrue(sleeper.waitFor(Patience.scaled(Duration.ofSeconds(10)).toSeconds(), TimeUnit.SECONDS));
    }

    /**
     * The host audit's case: a script run by a user who may not signal a stray (EPERM) said nothing and exited 0.
     * Now each such process that still runs as observed is named on stderr, one line, and the script exits 1 after
     * stopping what it could; a stray gone by then, or whose pid is now another process's, is no failure. Real
     * processes either way: as root the script runs as nobody against a sleep of root's; as any other user, against
     * a kernel thread, which only root may signal (and which ignores signals anyway).
     */
    @Test
    void aStrayItMayNotSignalIsNamedOnStderrAndTheScriptFails() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/sys/kernel/random/boot_id")), "a boot id to compare");
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> asTheRunner = root ? List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
                : List.of();
        long untouchable;
        if (root) {
            assumeTrue(exitOf(command(asTheRunner, "true")) == 0, "setpriv runs a command as nobody");
            untouchable = start(List.of("sleep", "300")).pid();
        } else {
            untouchable = kernelThread();
            assumeTrue(untouchable > 1, "a kernel thread is in sight (no pid namespace of its own)");
        }
        Process stoppable = start(command(asTheRunner, "sleep", "300"));
        Process gone = start(List.of("sleep", "300"));
        long goneTicks = StopLineTest.startTicks(gone.pid());
        gone.destroyForcibly().waitFor();
        Process reused = start(command(asTheRunner, "sleep", "300"));
        String script = StopScript.of(thisBoot(), List.of(
                stray(untouchable, StopLineTest.startTicks(untouchable), "untouchable"),
                stray(stoppable.pid(), StopLineTest.startTicks(stoppable.pid()), "sleep 300"),
                stray(gone.pid(), goneTicks, "gone"),
                stray(reused.pid(), StopLineTest.startTicks(reused.pid()) + 1, "reused")));

        Process sh = new ProcessBuilder(command(asTheRunner, "sh", "-c", script)).directory(new File("/"))
                .redirectErrorStream(true).start();
        String said = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(sh.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS), "the script ended");

        assertEquals(1, sh.exitValue(), said);
        assertEquals("fleet host: pid " + untouchable + " could not be signalled (SIGTERM): it still runs\n", said,
                "one line, for the one process that still runs unsignalled");
        assertTrue(ProcessHandle.of(untouchable).map(ProcessHandle::isAlive).orElse(false));
        assertTrue(stoppable.waitFor(Patience.scaled(Duration.ofSeconds(10)).toSeconds(), TimeUnit.SECONDS),
                "what it may signal it still stops");
        assertTrue(reused.isAlive(), "a pid whose start differs is never signalled");
    }

    private Process start(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process);
        return process;
    }

    private static List<String> command(List<String> prefix, String... command) {
        List<String> whole = new ArrayList<>(prefix);
        whole.addAll(List.of(command));
        return whole;
    }

    private static int exitOf(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS));
        return process.exitValue();
    }

    /** A kernel thread's pid (field 9 of its stat holds PF_KTHREAD), or -1 when none is in sight. */
    private static long kernelThread() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(path -> path.getFileName().toString().matches("[0-9]+")).sorted().toList()) {
                try {
                    String stat = Files.readString(entry.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long pid = Long.parseLong(entry.getFileName().toString());
                    if (pid > 1 && (Long.parseLong(fields[6]) & PF_KTHREAD) != 0) {
                        return pid;
                    }
                } catch (IOException | RuntimeException e) {
                    // gone while listed, or not readable: the next one may be
                }
            }
        }
        return -1;
    }
}
