package dev.fleet.mcp;

import dev.fleet.domain.lifecycle.Cohort;
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
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link TestServerMain} driven by hand-written JSON-RPC lines, so a test controls stdin exactly
 * (the SDK's client ends its server with SIGTERM rather than EOF) and sees every stdout byte.
 *
 * <p>stdout is read by a daemon thread; a test waits for the next line at most
 * {@link #READ_TIMEOUT_SECONDS} (generous, for a loaded machine), so a server that never answers
 * fails the test instead of hanging it.
 */
final class RawStdioServer implements AutoCloseable {

    static final long READ_TIMEOUT_SECONDS = 60;

    private static final ObjectMapper JSON = new ObjectMapper();

    final Process process;
    final Path calls;
    final Path stderr;
    private final OutputStream stdin;
    /** stdout's lines as they come; an empty value marks its end. */
    private final BlockingQueue<Optional<String>> stdout = new LinkedBlockingQueue<>();
    private boolean stdoutEnded;
    /** Every line the server wrote to stdout, each already checked to be a JSON-RPC message. */
    final List<String> stdoutLines = new ArrayList<>();

    RawStdioServer(Path dir, String... flags) throws IOException {
        this(dir, List.of(), flags);
    }

    /** @param jvmOptions options for the server's JVM, such as a small heap */
    RawStdioServer(Path dir, List<String> jvmOptions, String... flags) throws IOException {
        calls = dir.resolve("calls.txt");
        stderr = dir.resolve("stderr.txt");
        List<String> command = new ArrayList<>(List.of(Subprocess.java()));
        command.addAll(Subprocess.serverArguments(jvmOptions, calls, flags));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().remove(Cohort.ENV_VARIABLE);
        process = builder.start();
        stdin = process.getOutputStream();
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> {
            try {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    stdout.add(Optional.of(line));
                }
            } catch (IOException e) {
                // the process is gone
            } finally {
                stdout.add(Optional.empty());
            }
        }, "raw-stdio-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** The next stdout line, or null at its end; fails after {@link #READ_TIMEOUT_SECONDS}. */
    private String readLine() throws IOException {
        if (stdoutEnded) {
            return null;
        }
        Optional<String> line;
        try {
            line = stdout.poll(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for stdout", e);
        }
        if (line == null) {
            fail("no line on stdout within " + READ_TIMEOUT_SECONDS + " s; stderr:\n" + Files.readString(stderr));
        }
        if (line.isEmpty()) {
            stdoutEnded = true;
            return null;
        }
        return line.get();
    }

    long pid() {
        return process.pid();
    }

    void send(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes exactly these bytes (add the newline yourself). */
    void sendBytes(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** Reads stdout until the response to {@code id}, checking every line on the way. */
    JsonNode response(int id) throws IOException {
        return response(JSON.getNodeFactory().numberNode(id));
    }

    /** Reads stdout until the response whose id equals {@code id} (a string or number node). */
    JsonNode response(JsonNode id) throws IOException {
        for (String line = readLine(); line != null; line = readLine()) {
            JsonNode message = checkedJsonRpc(line);
            if (message.has("id") && message.get("id").equals(id)) {
                return message;
            }
        }
        fail("stdout ended before the response to request " + id + "; stderr:\n" + Files.readString(stderr));
        return null;
    }

    /** The next message on stdout, whatever it is. */
    JsonNode next() throws IOException {
        String line = readLine();
        if (line == null) {
            fail("stdout ended; stderr:\n" + Files.readString(stderr));
        }
        return checkedJsonRpc(line);
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
        return callTool(id, name, "{}");
    }

    /** A tools/call whose {@code arguments} is the given JSON text, verbatim. */
    JsonNode callTool(int id, String name, String argumentsJson) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":" + argumentsJson + "}}");
        return response(id);
    }

    void closeStdin() throws IOException {
        stdin.close();
    }

    /** Waits for the exit, then checks whatever else reached stdout. */
    boolean awaitExit(long timeout, TimeUnit unit) throws Exception {
        boolean exited = process.waitFor(timeout, unit);
        if (exited) {
            for (String line = readLine(); line != null; line = readLine()) {
                checkedJsonRpc(line);
            }
        }
        return exited;
    }

    List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }

    String stderrText() throws IOException {
        return Files.readString(stderr);
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
        if (message.get("id") != null && message.get("id").isNull()) {
            // JSON-RPC's answer to a line whose id cannot be known: an error with id null, and nothing else.
            assertTrue(message.has("error") && !message.has("result"), line);
            assertTrue(message.path("error").path("code").isInt(), line);
            assertTrue(message.path("error").path("message").isTextual(), line);
        } else {
            // The SDK itself accepts it as a JSON-RPC message (its 2.1.0 types refuse a null id).
            McpSchema.deserializeJsonRpcMessage(McpJson.mapper(), line);
        }
        return message;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
