package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet serve} started by hand at a terminal says what it is for, instead of waiting in
 * silence for JSON-RPC; started by an MCP client (pipes) it says nothing. The terminal is a real
 * pseudo-terminal, from util-linux's {@code script}.
 */
class ServeOnATerminalIT {

    private static final String LINE = "fleet: serve speaks MCP (JSON-RPC) over stdin/stdout, for an MCP client to "
            + "start; `fleet mcp-config` prints a client configuration. Ctrl-D ends it.";

    @Test
    void onATerminalItSaysWhatItIsForInOneStderrLine(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "util-linux script gives a pseudo-terminal");
        Path registry = dir.resolve("r.sqlite3");
        List<String> serve = new ArrayList<>(ServeProcess.serveCommand(registry, "prgs-author"));
        // Only stderr reaches the file: stdout stays the terminal's, so the line is known to be stderr's.
        String command = String.join(" ", serve.stream().map(ServeOnATerminalIT::quoted).toList()) + " 2>"
                + quoted(dir.resolve("stderr").toString());
        ProcessBuilder builder = new ProcessBuilder("script", "-qec", command, "/dev/null");
        TestFleets.isolate(builder.environment());
        Process terminal = builder.redirectErrorStream(true).start();
        try {
            String stderr = "";
            for (int waited = 0; waited < 1200 && !stderr.contains("\n"); waited++) {
                Thread.sleep(50);
                stderr = Files.exists(dir.resolve("stderr")) ? Files.readString(dir.resolve("stderr")) : "";
            }
            assertEquals(LINE, stderr.lines().findFirst().orElse(""), stderr);
        } finally {
            terminal.destroy();
            terminal.waitFor(30, TimeUnit.SECONDS);
            terminal.destroyForcibly();
        }
    }

    @Test
    void startedByAClientThroughPipesItSaysNothing(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        try (ServeProcess server = ServeProcess.start(registry, "prgs-author", java.util.Map.of())) {
            TestFleets.awaitRunningRows(registry, 1);
            assertFalse(server.stderrText().contains("speaks MCP"), server.stderrText());
        }
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
