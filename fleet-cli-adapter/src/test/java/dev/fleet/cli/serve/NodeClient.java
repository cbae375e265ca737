package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real MCP client on one of the official TypeScript SDKs ({@code src/test/node/client.mjs}, installed
 * beside the node server by {@link NodeMcpChild#install}): it starts a server command with the SDK's own
 * stdio transport, lists its tools, calls {@code gitea_get_runtime_context}, ends the server with the
 * SDK's own {@code close()} and exits. One run, bounded, with what it printed.
 */
final class NodeClient {

    static final Path SCRIPT = NodeMcpChild.INSTALLED.resolve("client.mjs");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The SDKs, as {@code client.mjs} names them. */
    enum Sdk {
        /** {@code @modelcontextprotocol/sdk} 1.x: {@code close()} ends stdin, ~2 s, SIGTERM, ~2 s, SIGKILL. */
        V1("sdk-1"),
        /**
         * {@code @modelcontextprotocol/client} 2.x negotiating the era ({@code mode: 'auto'}): a disposable
         * copy of the server gets {@code server/discover}, then stdin's end and SIGTERM at once, SIGKILL 1 s
         * later; the session's server is then ended as by 1.x.
         */
        V2("sdk-2");

        private final String argument;

        Sdk(String argument) {
            this.argument = argument;
        }
    }

    /** What one run printed: its exit status, stdout (one JSON line on success) and stderr (the server's too). */
    record Run(int exitCode, String stdout, String stderr) {

        /** The JSON line the client printed once {@code close()} returned; fails, with stderr, if it printed none. */
        JsonNode result() {
            if (exitCode != 0 || stdout.isBlank()) {
                fail("the node client exited " + exitCode + " with no result; its stderr:\n" + stderr);
            }
            try {
                return JSON.readTree(stdout.lines().reduce((first, second) -> second).orElseThrow());
            } catch (IOException e) {
                throw new AssertionError("the node client printed no JSON: " + stdout + "\n" + stderr, e);
            }
        }
    }

    private NodeClient() {
    }

    /**
     * Runs the client of {@code sdk} against {@code server} (argv) to its end, waiting at most {@code base}
     * scaled by {@link Patience}; past that, the client and everything it started are killed and the test
     * fails. The client runs in an environment cleared of the caller's fleet variables.
     */
    static Run run(Sdk sdk, List<String> server, Duration base) throws IOException, InterruptedException {
        return run(List.of(SCRIPT.toString(), sdk.argument, JSON.writeValueAsString(server)), sdk.toString(), base);
    }

    /** Runs {@code node} with {@code arguments} (a client script of {@link NodeMcpChild#INSTALLED} and its own) as above. */
    static Run run(List<String> arguments, String client, Duration base) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile("node-client", ".out");
        Path stderr = Files.createTempFile("node-client", ".err");
        try {
            List<String> command = new java.util.ArrayList<>(List.of("node"));
            command.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            TestFleets.isolate(builder.environment());
            Process node = builder.start();
            Duration bound = Patience.scaled(base);
            if (!node.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                node.descendants().forEach(ProcessHandle::destroyForcibly);
                node.destroyForcibly();
                fail("the " + client + " client did not end within " + bound.toSeconds() + " s (" + Patience.describe()
                        + "); its stderr:\n" + Files.readString(stderr));
            }
            return new Run(node.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
