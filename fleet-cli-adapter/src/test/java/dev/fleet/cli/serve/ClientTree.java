package dev.fleet.cli.serve;

import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real process tree as an MCP client makes one, whose client can die while the pipe stays open:
 *
 * <pre>
 * python3 (a child subreaper: adopts the orphan and records its exit status)
 *   └─ bash (the client: starts fleet serve with its own stdin, then waits to be told to exit)
 *        └─ java -jar fleet.jar serve ...
 * </pre>
 *
 * The test holds the write end of the server's stdin throughout, as a wrapper or a sibling that
 * inherited the pipe would: the client's death never closes it. Once bash exits, the kernel reparents
 * the server to the subreaper, which reaps it when it leaves and writes {@code PID STATUS} to a file.
 */
final class ClientTree implements AutoCloseable {

    /** PR_SET_CHILD_SUBREAPER is 36 on Linux; the exit status is recorded for every child but the client. */
    private static final String SUBREAPER = String.join("\n",
            "import ctypes, os, sys",
            "ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)",
            "client = os.fork()",
            "if client == 0:",
            "    os.execvp(sys.argv[2], sys.argv[2:])",
            "while True:",
            "    try:",
            "        pid, status = os.wait()",
            "    except ChildProcessError:",
            "        break",
            "    if pid != client:",
            "        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)",
            "        with open(sys.argv[1], 'a') as out:",
            "            out.write(f'{pid} {code}\\n')");

    /** The client: starts the server on its own stdin (explicitly: a background job would get /dev/null). */
    private static final String CLIENT = "echo $$ > \"$FLEET_TEST_CLIENT\"; "
            + "\"$@\" <&0 2>\"$FLEET_TEST_ERR\" & echo $! > \"$FLEET_TEST_PID\"; "
            + "while [ ! -e \"$FLEET_TEST_GO\" ]; do sleep 0.05; done";

    /**
     * A client that exits as soon as the server it started has become java, i.e. once the {@code fleet}
     * launcher, having read its parent, has {@code exec}'d the JVM; long before the JVM reaches its main.
     * The first word of {@code /proc/PID/cmdline} is read by bash itself (no process started per look).
     */
    private static final String LEAVING_CLIENT = "echo $$ > \"$FLEET_TEST_CLIENT\"; "
            + "\"$@\" <&0 2>\"$FLEET_TEST_ERR\" & echo $! > \"$FLEET_TEST_PID\"; "
            + "while kill -0 $! 2>/dev/null; do argv0=''; read -r -d '' argv0 < /proc/$!/cmdline 2>/dev/null; "
            + "[[ $argv0 == */java ]] && break; sleep 0.01; done";

    private final Process subreaper;
    private final Path dir;

    private ClientTree(Process subreaper, Path dir) {
        this.subreaper = subreaper;
        this.dir = dir;
    }

    /** Starts the tree with {@code serve} (a {@code fleet serve} command) as the server. */
    static ClientTree start(Path dir, List<String> serve, Map<String, String> env) throws IOException {
        return start(dir, serve, env, CLIENT);
    }

    /**
     * Starts the tree with a client that leaves on its own, right after its server's launcher has
     * {@code exec}'d java (see {@link #LEAVING_CLIENT}); the test still holds the server's stdin.
     */
    static ClientTree startLeaving(Path dir, List<String> serve, Map<String, String> env) throws IOException {
        return start(dir, serve, env, LEAVING_CLIENT);
    }

    private static ClientTree start(Path dir, List<String> serve, Map<String, String> env, String client)
            throws IOException {
        // The server's command line is in a script, not in the client's or the subreaper's argv: a process
        // whose command line names the serve command would itself look like a server.
        Path script = dir.resolve("serve.sh");
        Files.writeString(script, "exec " + serve.stream().map(arg -> "'" + arg.replace("'", "'\\''") + "'")
                .collect(java.util.stream.Collectors.joining(" ")) + "\n");
        List<String> command = List.of("python3", "-c", SUBREAPER, dir.resolve("status").toString(),
                "bash", "-c", client, "client", "bash", script.toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(dir.resolve("subreaper.err").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(env);
        builder.environment().put("FLEET_TEST_ERR", dir.resolve("server.err").toString());
        builder.environment().put("FLEET_TEST_PID", dir.resolve("server.pid").toString());
        builder.environment().put("FLEET_TEST_GO", dir.resolve("go").toString());
        builder.environment().put("FLEET_TEST_CLIENT", dir.resolve("client.pid").toString());
        return new ClientTree(builder.start(), dir);
    }

    /** The server's pid, once the client has started it. */
    long serverPid() throws InterruptedException {
        return pidIn("server.pid");
    }

    /** The client's pid: the server's parent at start. */
    long clientPid() throws InterruptedException {
        return pidIn("client.pid");
    }

    private long pidIn(String file) throws InterruptedException {
        return Long.parseLong(await(file, () -> read(file).filter(text -> text.endsWith("\n"))).trim());
    }

    /** Tells the client to exit; the test still holds the server's stdin. */
    void killClient() throws IOException {
        Files.createFile(dir.resolve("go"));
    }

    /** The server's exit status, once the subreaper has reaped it. */
    int serverExit(long serverPid) throws InterruptedException {
        String prefix = serverPid + " ";
        return Integer.parseInt(await("server " + serverPid + " to exit", () -> read("status").flatMap(text ->
                text.lines().filter(line -> line.startsWith(prefix)).findFirst())).substring(prefix.length()));
    }

    String serverStderr() {
        return read("server.err").orElse("");
    }

    /** Closes the server's stdin: EOF, as a client that leaves properly gives. */
    void closeStdin() throws IOException {
        OutputStream stdin = subreaper.getOutputStream();
        stdin.close();
    }

    private Optional<String> read(String name) {
        try {
            return Optional.of(Files.readString(dir.resolve(name), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A wait for the tree to get somewhere (a minute on a quiet host, scaled by {@link Patience}), never an assertion on speed. */
    private <T> T await(String what, java.util.function.Supplier<Optional<T>> probe) throws InterruptedException {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("waited in vain for " + what + " (" + Patience.describe() + "); server stderr: "
                + serverStderr() + "; subreaper stderr: " + read("subreaper.err").orElse(""));
    }

    /** Ends whatever is left: EOF to the server, the client told to go; the subreaper then reaps and exits. */
    @Override
    public void close() {
        try {
            if (!Files.exists(dir.resolve("go"))) {
                killClient();
            }
            closeStdin();
            if (!subreaper.waitFor(Patience.scaled(Duration.ofSeconds(30)).toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS)) {
                subreaper.descendants().forEach(ProcessHandle::destroyForcibly);
                subreaper.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            subreaper.descendants().forEach(ProcessHandle::destroyForcibly);
            subreaper.destroyForcibly();
        }
    }
}
