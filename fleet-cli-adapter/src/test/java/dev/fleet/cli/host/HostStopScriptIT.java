package dev.fleet.cli.host;

import static dev.fleet.cli.host.HostScenariosIT.pidOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stop script of {@code fleet host --strays --format sh} (the contract, §14), run with {@code sh} as
 * an operator pipes it: it ends exactly the strays (an older generation, one that ignores SIGTERM too,
 * an orphan, a leftover) and nothing else (the current servers, the client, a server started by hand),
 * and it signals no pid whose start instant is no longer the one {@code fleet host} observed.
 */
class HostStopScriptIT {

    @TempDir
    Path dir;

    private HostHome home;
    private final TestProcesses processes = new TestProcesses();

    @BeforeAll
    static void needsPython() {
        HostHome.python();
    }

    @BeforeEach
    void home() throws Exception {
        home = HostHome.create(dir);
    }

    @AfterEach
    void endEveryProcess() throws Exception {
        processes.close();
    }

    @Test
    void theScriptEndsExactlyTheStrays() throws Exception {
        home.claude(new TreeMap<>(Map.of("alpha", home.server("alpha"),
                "hard", home.server("hard", "--ignore-eof", "--ignore-term"), "wrapped", home.wrapper("wrapped"))));
        home.codex(Map.of("stubborn", home.server("stubborn", "--ignore-eof")));
        ClientProgram claude = ClientProgram.start(home, "claude", processes);
        List<ClientProgram.Started> older = claude.awaitGeneration();
        List<ClientProgram.Started> younger = claude.reload();
        ClientProgram codex = ClientProgram.start(home, "codex", processes);
        long orphan = pidOf(codex.awaitGeneration(), "stubborn");
        codex.kill();
        // The older wrapper killed alone, as an npx is: its child, still reading the client's pipe, is a leftover.
        long wrapper = pidOf(older, "wrapped");
        long leftover = ProcessHandle.of(wrapper).orElseThrow().children().findFirst().orElseThrow().pid();
        ProcessHandle.of(wrapper).orElseThrow().destroyForcibly();
        TestProcesses.awaitGone(wrapper, "the older wrapper");
        long manual = ByHand.start(home.server("alpha"), processes);

        List<Long> strays = List.of(pidOf(older, "alpha"), pidOf(older, "hard"), orphan, leftover);
        long youngerWrapper = pidOf(younger, "wrapped");
        List<Long> bystanders = List.of(claude.pid(), manual, pidOf(younger, "alpha"), pidOf(younger, "hard"),
                youngerWrapper, ProcessHandle.of(youngerWrapper).orElseThrow().children().findFirst().orElseThrow().pid());
        // Every stray must show as one before the script is taken, or the script could not hold it.
        awaitStrays(strays);
        HostOutput script = home.host("--strays", "--format", "sh");
        assertEquals(1, script.exitCode(), script.toString());
        for (long stray : strays) {
            assertTrue(script.run().stdout().contains(Long.toString(stray)), stray + " is in the script: " + script);
        }

        String shOutput = sh(script.run().stdout());

        for (long stray : strays) {
            assertFalse(TestProcesses.runs(stray), "stray " + stray + " ended; sh said: " + shOutput);
        }
        for (long bystander : bystanders) {
            assertTrue(TestProcesses.runs(bystander), "pid " + bystander + " is no stray and still runs; sh said: " + shOutput);
        }
        HostOutput after = home.host("--format", "json");
        assertEquals(0, after.json().get("strays").asInt(), after.toString());
        assertEquals(0, after.exitCode(), after.toString());
    }

    @Test
    void theScriptRefusesAPidWhoseStartChanged() throws Exception {
        home.claude(Map.of("alpha", home.server("alpha")));
        ClientProgram claude = ClientProgram.start(home, "claude", processes);
        long older = claude.awaitGeneration().get(0).pid();
        long younger = claude.reload().get(0).pid();
        HostOutput script = home.host("--strays", "--format", "sh");
        assertEquals(1, script.exitCode(), script.toString());
        String ticks = Long.toString(TestProcesses.startTicks(older));
        Matcher observed = Pattern.compile("\\b" + ticks + "\\b").matcher(script.run().stdout());
        assertTrue(observed.find(), "the script holds the observed start " + ticks + ": " + script);

        // As if pid `older` had been reused since: the script expects another start than it has.
        String edited = observed.replaceAll(Long.toString(Long.parseLong(ticks) + 1));
        assertNotEquals(script.run().stdout(), edited);
        String refused = sh(edited);
        assertTrue(TestProcesses.runs(older), "a pid whose start changed is never signalled; sh said: " + refused);

        String stopped = sh(script.run().stdout());
        assertFalse(TestProcesses.runs(older), "the unedited script ends it; sh said: " + stopped);
        assertTrue(TestProcesses.runs(younger), "the current generation stays");
    }

    /** Runs {@code fleet host} until every pid of {@code strays} is reported as a stray (a death takes a moment to show). */
    private void awaitStrays(List<Long> strays) throws InterruptedException {
        HostOutput[] last = {null};
        Patience.await(Duration.ofSeconds(60), Duration.ofMillis(200), () -> {
            last[0] = home.host("--format", "json");
            return strays.stream().allMatch(pid -> !List.of("absent", "current", "manual").contains(last[0].state(pid)));
        }, "every stray " + strays + " is reported as one: " + last[0]);
    }

    /** Pipes {@code script} into {@code sh}, as {@code fleet host --strays --format sh | sh}; its output. */
    private String sh(String script) throws Exception {
        Path file = Files.createTempFile(dir, "stop", ".sh");
        Files.writeString(file, script);
        Process sh = new ProcessBuilder("sh").redirectInput(file.toFile()).redirectErrorStream(true).start();
        if (!sh.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS)) {
            sh.destroyForcibly();
            throw new AssertionError("the stop script did not finish (" + Patience.describe() + "): " + script);
        }
        return "exit " + sh.exitValue() + ": " + new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
