package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sun.misc.Signal;

/**
 * What each signal does to a real stdio server (docs/CONTRACT.md): the stop signals end it like
 * SIGTERM (row marked stopped, exit 128 + the signal), SIGQUIT's thread dump goes to stderr and the
 * server serves on; never a non-JSON byte on stdout, never an {@code hs_err} file.
 */
class StdioSignalsTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"HUP", "USR1", "USR2", "ALRM", "VTALRM", "PWR", "STKFLT", "IO", "XCPU"})
    void aStopSignalMarksTheRowStoppedAndExitsWith128PlusItsNumber(String name) throws Exception {
        // A JVM keeps a SIGHUP it inherited as ignored (nohup): so does a server started from here then.
        Assumptions.assumeFalse(name.equals("HUP") && ignoredHere(new Signal(name).getNumber()),
                "SIGHUP is ignored by whatever started this build (nohup?), and so by the server it starts");
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            String runtimeId = server.callTool(2, "gitea_get_runtime_context")
                    .path("result").path("structuredContent").path("runtime_id").asText();

            kill(name, server.pid());

            assertTrue(server.awaitExit(30, TimeUnit.SECONDS), "SIG" + name + " ends the server");
            assertEquals(128 + new Signal(name).getNumber(), server.process().exitValue(), "128 + SIG" + name);
            assertEquals(1, server.calls().stream()
                    .filter(line -> line.startsWith("markStopped " + runtimeId + " ")).count(), server.calls()::toString);
            assertNoCrashFile(server.pid());
        }
    }

    @Test
    void sigquitWritesItsThreadDumpToStderrAndTheServerServesOn() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();

            kill("QUIT", server.pid());
            awaitStderr(server, "Full thread dump");

            JsonNode context = server.callTool(2, "gitea_get_runtime_context"); // every stdout line checked as JSON-RPC
            assertFalse(context.path("result").path("isError").asBoolean(), context::toString);
            server.closeStdin();
            assertTrue(server.awaitExit(30, TimeUnit.SECONDS));
            assertEquals(0, server.process().exitValue());
            assertTrue(server.stdoutLines().stream().noneMatch(line -> line.contains("thread dump")));
            assertNoCrashFile(server.pid());
        }
    }

    /** Whether this process ignores {@code signal} ({@code SigIgn} in its {@code /proc/self/status}). */
    private static boolean ignoredHere(int signal) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    private static void kill(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue(), "kill -s " + name);
    }

    private static void awaitStderr(RawStdioServer server, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!server.stderrText().contains(text)) {
            assertTrue(System.nanoTime() < deadline, "no '" + text + "' on stderr within 60 s");
            Thread.sleep(100);
        }
    }

    /** The JVM writes a crash report into its working directory, this test's own. */
    private static void assertNoCrashFile(long pid) {
        assertFalse(Files.exists(Path.of("hs_err_pid" + pid + ".log")), "the JVM crashed");
    }
}
