package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The whole stop script: its shape, and run with {@code sh}: it refuses another boot and ends the strays on this one. */
class StopScriptTest {

    /** The lines a script may have besides comments and its stop line. */
    static final Pattern BOOT_CHECK = Pattern.compile("\\[ \"\\$\\(tr A-F a-f </proc/sys/kernel/random/boot_id "
            + "2>/dev/null\\)\" = '[0-9a-f-]+' \\] \\|\\| \\{ echo 'fleet host: this script was made on boot [0-9a-f-]+; "
            + "not run on another boot' >&2; exit 1; \\}");
    static final String UNKNOWN_BOOT = "echo 'fleet host: the boot was unknown when this script was made; not run' >&2; exit 1";

    private Process sleeper;

    @AfterEach
    void end() {
        if (sleeper != null) {
            sleeper.destroyForcibly();
        }
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
}
