package dev.fleet.cli.roster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.testing.Patience;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A roster path that {@code stat} calls a regular file may still block its reader for ever: {@code /proc/kmsg},
 * a stalled network mount. Every verb hung on one, with no word (a hostile audit's find). The kernel's
 * {@code trace_pipe} is such a file that no test shares: regular and empty to {@code stat}, its read waits
 * for trace data that never comes. It is mounted in a mount namespace of the test's own, which needs root.
 */
class RosterThatBlocksIT {

    @TempDir
    Path dir;

    @Test
    void aRosterWhoseReadNeverEndsIsOneLineAndExitTwo() throws Exception {
        Path tracefs = Files.createDirectory(dir.resolve("tracefs"));
        Path stderr = dir.resolve("stderr.txt");
        // The roster verb reads the roster and nothing else: what it prints on success goes to /dev/null.
        ProcessBuilder builder = new ProcessBuilder("unshare", "--mount", "sh", "-c",
                "mount -t tracefs nodev \"$1\" || exit 99; shift; exec \"$@\"", "sh", tracefs.toString(),
                FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "roster", "--roster",
                tracefs.resolve("trace_pipe").toString());
        builder.redirectInput(new File("/dev/null"));
        builder.redirectOutput(new File("/dev/null"));
        builder.redirectError(stderr.toFile());
        Process fleet = builder.start();

        boolean ended = fleet.waitFor(Patience.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS);
        if (!ended) {
            fleet.destroyForcibly();
        }
        assumeTrue(!ended || fleet.exitValue() != 99, "no tracefs here (unshare --mount needs root)");
        List<String> said = Files.readAllLines(stderr, StandardCharsets.UTF_8);
        assertTrue(ended, "fleet roster still waited on a read that never ends; stderr: " + said);
        assertEquals(2, fleet.exitValue(), String.join("\n", said));
        assertEquals(1, said.size(), String.join("\n", said));
        assertTrue(said.get(0).startsWith("fleet: ") && said.get(0).contains("trace_pipe")
                && said.get(0).contains("no answer within 2 s"), said.get(0));
    }
}
