package dev.fleet.cli.demo;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The demo's first MCP client starts each server through a launcher process of its own, as clients that
 * start servers through {@code npx} or a shell do: the launcher is the server's parent. When the client
 * dies its launchers exit, while the demo, standing in for whatever else still holds the pipes, keeps
 * every server's stdin open: no EOF comes, and the servers are orphans until they notice.
 *
 * <p>A launcher runs {@code bash SCRIPT <&0 &} (a background job would otherwise get /dev/null as its
 * stdin), writes that job's pid to a file of its own (the script execs the server, so it is the
 * server's pid; the launcher's other children are its {@code sleep}s, and a pid-ordered scan of its
 * children may meet one of those first once pids wrap), and then waits for a file to appear, or for
 * its server to exit (probed with signal 0, so that the demo's clean-up, which waits for the
 * launchers, also waits for their servers); nothing is ever killed. The server's command line is in
 * the script, never in the launcher's own argv, which would make the launcher look like a server.
 */
final class ClientLaunchers {

    private static final String LAUNCHER = "bash \"$1\" <&0 & "
            + "echo \"$!\" > \"$3.part\" && mv \"$3.part\" \"$3\"; "
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
                gone.toString(), pidFile(name).toString()).redirectError(server.redirectError());
        launcher.environment().clear();
        launcher.environment().putAll(server.environment());
        return launcher;
    }

    /**
     * The server the launcher of {@code name} started, once it has said which (at once after the
     * start, so the bounded wait is for a loaded host only); empty if it has not within {@code patience}.
     */
    Optional<ProcessHandle> server(String name, Duration patience) throws IOException, InterruptedException {
        Path pidFile = pidFile(name);
        long deadline = System.nanoTime() + patience.toNanos();
        while (!Files.exists(pidFile)) {
            if (System.nanoTime() - deadline > 0) {
                return Optional.empty();
            }
            Thread.sleep(20);
        }
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
    }

    private Path pidFile(String name) {
        return dir.resolve("launch-" + name + ".pid");
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
