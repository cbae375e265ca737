package dev.fleet.mcp;

import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.testing.JsonRpcProcess;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link TestServerMain} driven by hand-written JSON-RPC lines ({@link JsonRpcProcess}), each stdout
 * line also accepted by the SDK's own deserializer (its 2.2.0 types refuse a null id, so those are
 * checked as JSON-RPC errors only), and the fake registry's calls readable.
 */
final class RawStdioServer extends JsonRpcProcess {

    final Path calls;

    RawStdioServer(Path dir, String... flags) throws IOException {
        this(dir, List.of(), flags);
    }

    /** @param jvmOptions options for the server's JVM, such as a small heap */
    RawStdioServer(Path dir, List<String> jvmOptions, String... flags) throws IOException {
        this(dir.resolve("calls.txt"), dir.resolve("stderr.txt"), jvmOptions, flags);
    }

    private RawStdioServer(Path calls, Path stderr, List<String> jvmOptions, String... flags) throws IOException {
        super(builder(calls, jvmOptions, flags), stderr,
                RawStdioServer::acceptedByTheSdk);
        this.calls = calls;
    }

    private static ProcessBuilder builder(Path calls, List<String> jvmOptions, String... flags) {
        List<String> command = new ArrayList<>(List.of(Subprocess.java()));
        command.addAll(Subprocess.serverArguments(jvmOptions, calls, flags));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove(Cohort.ENV_VARIABLE);
        return builder;
    }

    private static void acceptedByTheSdk(String line) {
        try {
            McpSchema.deserializeJsonRpcMessage(McpJson.mapper(), line);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("the SDK cannot read this stdout line: " + line, e);
        }
    }

    List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }
}
