package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link TestServerMain} driven by hand-written JSON-RPC lines, so a test controls stdin exactly
 * (the SDK's client ends its server with SIGTERM rather than EOF) and sees every stdout byte.
 */
final class RawStdioServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final Process process;
    final Path calls;
    final Path stderr;
    private final OutputStream stdin;
    private final BufferedReader stdout;
    /** Every line the server wrote to stdout, each already checked to be a JSON-RPC message. */
    final List<String> stdoutLines = new ArrayList<>();

    RawStdioServer(Path dir, String... flags) throws IOException {
        calls = dir.resolve("calls.txt");
        stderr = dir.resolve("stderr.txt");
        List<String> command = new ArrayList<>(List.of(Subprocess.java()));
        command.addAll(Subprocess.serverArguments(calls, flags));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().remove(Cohort.ENV_VARIABLE);
        process = builder.start();
        stdin = process.getOutputStream();
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** Reads stdout until the response to {@code id}, checking every line on the way. */
    JsonNode response(int id) throws IOException {
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            JsonNode message = checkedJsonRpc(line);
            if (message.has("id") && message.get("id").asInt() == id) {
                return message;
            }
        }
        fail("stdout ended before the response to request " + id + "; stderr:\n" + Files.readString(stderr));
        return null;
    }

    /** The MCP handshake: initialize, then the initialized notification. */
    JsonNode initialize() throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw-test\",\"version\":\"1\"}}}");
        JsonNode result = response(1);
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return result;
    }

    JsonNode callTool(int id, String name) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":{}}}");
        return response(id);
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    /** Waits for the exit, then checks whatever else reached stdout. */
    boolean awaitExit(long timeout, TimeUnit unit) throws Exception {
        boolean exited = process.waitFor(timeout, unit);
        if (exited) {
            for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
                checkedJsonRpc(line);
            }
        }
        return exited;
    }

    List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }

    private JsonNode checkedJsonRpc(String line) throws IOException {
        stdoutLines.add(line);
        JsonNode message;
        try {
            message = JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("stdout carried a line that is not JSON: " + line, e);
        }
        assertTrue(message.isObject(), line);
        assertEquals("2.0", message.path("jsonrpc").asText(), line);
        boolean response = message.has("id") && (message.has("result") || message.has("error"));
        assertTrue(response || message.has("method"), () -> "neither a response nor a request: " + line);
        // And the SDK itself accepts it as a JSON-RPC message.
        McpSchema.deserializeJsonRpcMessage(McpJson.mapper(), line);
        return message;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
