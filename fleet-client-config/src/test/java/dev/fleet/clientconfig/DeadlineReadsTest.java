package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read that would block (a FIFO no one writes, as a path checked to be a regular file may have become
 * since) is given up at its deadline; a file reads as it is.
 */
class DeadlineReadsTest {

    @TempDir
    Path root;

    @Test
    void aFileReadsUpToTheBound() throws Exception {
        Path file = Files.writeString(root.resolve("a.json"), "{\"mcpServers\": {}}");

        assertArrayEquals("{\"mcp".getBytes(StandardCharsets.UTF_8), DeadlineReads.head(file, 5));
    }

    @Test
    void aReadThatBlocksIsGivenUpAtItsDeadline() throws Exception {
        Path fifo = root.resolve("blocks.json");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor(60, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo unavailable");

        // Without the deadline, opening a FIFO nobody writes never returns: the test would end at its own limit.
        assertTimeoutPreemptively(Duration.ofMinutes(1),
                () -> assertThrows(DeadlineReads.Slow.class, () -> DeadlineReads.head(fifo, 10)));
    }
}
