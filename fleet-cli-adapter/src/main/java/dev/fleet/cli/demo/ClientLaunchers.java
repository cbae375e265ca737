package dev.fleet.cli.demo;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The demo's first MCP client starts each server through a launcher process of its own, as clients that
 * start servers through {@code npx} or a shell do: the launcher is the server's parent. When the client
 * dies its launchers exit, while the demo, standing in for whatever else still holds the pipes, keeps
 * every server's stdin open: no EOF comes, and the servers are orphans until they notice.
 *
 * <p>A launcher runs {@code bash SCRIPT <&0 &} (a background job would otherwise get /dev/null as its
 * stdin) and then waits for a file to appear, or for its server to exit (probed with signal 0, so that
 * the demo's clean-up, which waits for the launchers, also waits for their servers); nothing is ever
 * killed. The server's command line is in
 * the script, never in the launcher's own argv, which would make the launcher look like a server.
 */
final class ClientLaunchers {

    private static final String LAUNCHER = "bash \"$1\" <&0 & "
            + "while [ ! -e \"$2\" ] && kill -0 \"$!\" 2>/dev/null; do sleep 0.05; done";

    private final Path dir;
    private final Path gone;

    ClientLaunchers(Path dir) {
        this.dir = dir;
        this.gone = dir.resolve("first-client-gone");
    }

    /** A launcher, not started, that starts {@code server} (not started either) as its child. */
    ProcessBuilder wrap(ProcessBuilder server, String name) throws IOException {
        Path script = dir.resolve("launch-" + name + ".sh");
        Files.writeString(script, "exec " + quoted(server.command()) + "\n");
        ProcessBuilder launcher = new ProcessBuilder("bash", "-c", LAUNCHER, "fleet-demo-client", script.toString(),
                gone.toString()).redirectError(server.redirectError());
        launcher.environment().clear();
        launcher.environment().putAll(server.environment());
        return launcher;
    }

    /** Every launcher exits (within a twentieth of a second): the first client is gone. */
    void exit() throws IOException {
        try {
            Files.createFile(gone);
        } catch (FileAlreadyExistsException already) {
            // Gone already.
        }
    }

    private static String quoted(List<String> command) {
        return command.stream().map(arg -> "'" + arg.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
    }
}
