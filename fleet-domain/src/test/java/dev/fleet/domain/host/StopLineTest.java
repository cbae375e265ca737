package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guarded stop line, run with a real {@code sh} against real processes: it ends those whose start
 * is still the one observed (SIGKILL for one that ignores SIGTERM), spares a pid whose start differs,
 * and reads field 22 right when the command name holds {@code )} and spaces.
 */
class StopLineTest {

    /** The whole line: fixed words (quoted here as they are), and digits where the boot id, pids and ticks go. */
    static final Pattern SHAPE = Pattern.compile(Pattern.quote("(set -f; IFS=' '; [ \"$(tr A-F a-f "
            + "</proc/sys/kernel/random/boot_id 2>/dev/null)\" = '") + "[0-9a-f-]+"
            + Pattern.quote("' ] || { echo 'fleet host: not stopped: seen on boot ") + "[0-9a-f-]+"
            + Pattern.quote(", not this boot' >&2; exit 1; }; c() { s=$(cat /proc/$p/stat 2>/dev/null) || return 1; "
                    + "set -- ${s##*\")\"}; [ $# -ge 20 ] && shift 19 && [ \"$1\" = \"${e#*:}\" ]; }; "
                    + "k() { for e in ") + "[0-9]+:[0-9]+( [0-9]+:[0-9]+)*"
            + Pattern.quote("; do p=${e%:*}; case \" $f \" in *\" $p \"*) continue;; esac; c || continue; "
                    + "kill -s $g $p 2>/dev/null || ! c || { echo \"fleet host: pid $p could not be signalled (SIG$g): "
                    + "it still runs\" >&2; f=\"$f $p\"; }; done; }; f=; g=TERM; k; sleep 2; g=KILL; k; [ -z \"$f\" ])"));

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void endWhatWasStarted() {
        started.forEach(Process::destroyForcibly);
    }

    private Process start(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process);
        return process;
    }

    /** Field 22 of the process's stat: the text after the last ')' holds fields 3 on. */
    static long startTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[19]);
    }

    private static void run(String line) throws Exception {
        Process sh = new ProcessBuilder("sh", "-c", line).inheritIO().start();
        assertTrue(sh.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS),
                "the stop line ended (" + Patience.describe() + ")");
        assertEquals(0, sh.exitValue());
    }

    private static void assertEnds(Process process) throws InterruptedException {
        assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(10)).toSeconds(), TimeUnit.SECONDS),
                "pid " + process.pid() + " ended");
    }

    @Test
    void theLineIsFixedWordsAndDigitsOnly() {
        String line = StopLine.of(HostFixture.BOOT_ID, List.of(new StopTarget(12, 345), new StopTarget(13, 0)));

        assertTrue(SHAPE.matcher(line).matches(), line);
        assertTrue(line.contains(" 12:345 13:0;"), line);
        assertTrue(line.contains("= '" + HostFixture.BOOT_ID + "' ]"), line);
        assertThrows(IllegalArgumentException.class, () -> StopLine.of(HostFixture.BOOT_ID, List.of()));
    }

    @Test
    void aTargetItCannotGuardOrABootItCannotTrustGivesALineThatSignalsNothingAndNoException() {
        List<StopTarget> fine = List.of(new StopTarget(12, 345));

        assertEquals(StopLine.UNGUARDED, StopLine.of(HostFixture.BOOT_ID, List.of(new StopTarget(0, 1))));
        assertEquals(StopLine.UNGUARDED, StopLine.of(HostFixture.BOOT_ID, List.of(new StopTarget(1, 1))),
                "init is never signalled");
        assertEquals(StopLine.UNGUARDED, StopLine.of(HostFixture.BOOT_ID,
                List.of(new StopTarget(12, 345), new StopTarget(13, -1))), "a start that could not be read guards nothing");
        assertEquals(StopLine.UNKNOWN_BOOT, StopLine.of("", fine));
        assertEquals(StopLine.UNKNOWN_BOOT, StopLine.of("0f3c9d2e'; reboot; '", fine), "hex digits and dashes only");
        assertEquals(StopLine.UNKNOWN_BOOT, StopLine.of("0f3c9d2e-1b7a-4c55-9e0d-2a6b8f1c3d4g", fine));
        assertTrue(SHAPE.matcher(StopLine.of(" 0F3C9D2E-1B7A-4C55-9E0D-2A6B8F1C3D4E\n", fine)).matches(),
                "trimmed, any case, as §4 compares");
        for (String refusal : List.of(StopLine.UNKNOWN_BOOT, StopLine.UNGUARDED)) {
            assertFalse(refusal.contains("kill"), refusal);
        }
    }

    @Test
    void onAnotherBootTheLineSignalsNothing() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/sys/kernel/random/boot_id")), "a boot id to compare");
        Process stray = start("sleep", "300");
        String otherBoot = "00000000-0000-0000-0000-000000000000";

        Process sh = new ProcessBuilder("sh", "-c", StopLine.of(otherBoot,
                List.of(new StopTarget(stray.pid(), startTicks(stray.pid()))))).redirectErrorStream(true).start();
        String said = new String(sh.getInputStream().readAllBytes());
        assertTrue(sh.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS));

        assertEquals(1, sh.exitValue(), said);
        assertTrue(said.contains("not stopped: seen on boot " + otherBoot), said);
        assertTrue(stray.isAlive(), "a process seen on another boot is never signalled");
    }

    @Test
    void itEndsTheObservedProcessesAndSparesAPidWhoseStartChanged() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "a /proc to read starts from");
        Process stray = start("sleep", "300");
        Process deaf = start("sh", "-c", "trap '' TERM; sleep 300 & wait");
        Process reused = start("sleep", "300");
        Path odd = dir.resolve("x) 9 9 9 9 9");
        Files.copy(Path.of(resolve("sleep")), odd, StandardCopyOption.COPY_ATTRIBUTES);
        Process oddName = start(odd.toString(), "300");

        List<StopTarget> targets = List.of(new StopTarget(stray.pid(), startTicks(stray.pid())),
                new StopTarget(deaf.pid(), startTicks(deaf.pid())),
                new StopTarget(oddName.pid(), startTicks(oddName.pid())),
                new StopTarget(reused.pid(), startTicks(reused.pid()) + 1));
        run(StopLine.of(bootId(), targets));

        assertEnds(stray);
        assertEnds(deaf);
        assertEnds(oddName);
        assertFalse(reused.waitFor(0, TimeUnit.SECONDS), "a pid whose start differs is never signalled");
        assertTrue(reused.isAlive());
    }

    static String bootId() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    }

    /** The program's path on PATH, for a copy under an odd name. */
    private static String resolve(String program) {
        for (String directory : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(directory, program);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(program + " is not on PATH");
    }
}
