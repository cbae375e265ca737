package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher names the server it started, never one of its own {@code sleep}s: the demo once took
 * the first child of a pid-ordered scan, which after a pid wrap was a sleep, and then waited for
 * that "server" to be named orphaned.
 */
class ClientLaunchersTest {

    private static final Duration PATIENCE = Patience.scaled(Duration.ofSeconds(60));

    @Test
    void aLauncherNamesTheServerItStartedAndLeavesItRunningWhenItsClientIsGone(@TempDir Path dir)
            throws Exception {
        ClientLaunchers launchers = new ClientLaunchers(dir);
        Process launcher = launchers.wrap(new ProcessBuilder("sleep", "317.25"), "prgs-author").start();
        ProcessHandle server = launchers.server("prgs-author", PATIENCE).orElseThrow();
        try {
            // The pid is the job's from the moment bash forks it; its command becomes the server's when
            // the script execs, a moment later on a loaded host, so the wait is for that exec.
            Patience.await(Duration.ofSeconds(60), Duration.ofMillis(10),
                    () -> List.of("317.25").equals(server.info().arguments().map(List::of).orElse(List.of())),
                    "the named process becomes the server, not a sleep of the launcher's loop");
            assertEquals(launcher.pid(), server.parent().orElseThrow().pid());

            launchers.exit();
            assertTrue(launcher.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS), "the launcher leaves");
            assertEquals(0, launcher.exitValue());
            assertTrue(server.isAlive(), "its server is an orphan, not ended");
        } finally {
            server.destroy();
            launcher.destroy();
        }
    }

    @Test
    void aLauncherThatNamedNoServerIsToldAfterTheWait(@TempDir Path dir) throws Exception {
        assertTrue(new ClientLaunchers(dir).server("never-started", Duration.ofMillis(50)).isEmpty());
    }
}
