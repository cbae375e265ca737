package dev.fleet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real MCP stdio server process driven by hand-written JSON-RPC lines, so a test controls stdin
 * exactly (the SDK's client ends its server with SIGTERM rather than EOF) and sees every stdout
 * byte, each checked to be JSON-RPC. The one raw stdio client of every module's tests.
 *
 * <p>stdout is read by a daemon thread; a test waits for the next line at most
 * {@link #READ_TIMEOUT} scaled by {@link Patience} (a loaded host gets longer), so a server that
 * never answers fails the test instead of hanging it.
 */
public class JsonRpcProcess implements AutoCloseable {

    /** The wait for one stdout line on a quiet host; {@link Patience} scales it for the host as it is. */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path stderr;
    private final OutputStream stdin;
    /** stdout's lines as they come; an empty value marks its end. */
    private final BlockingQueue<Optional<String>> stdout = new LinkedBlockingQueue<>();
    private boolean stdoutEnded;
    /** Every line the server wrote to stdout, each already checked to be a JSON-RPC message. */
    private final List<String> stdoutLines = new ArrayList<>();

    private final java.util.function.Consumer<String> lineCheck;

    /**
     * Starts {@code builder}'s command with its stderr in {@code stderr}.
     *
     * @param lineCheck a further check of every stdout line (a module's own JSON-RPC types, say)
     */
    protected JsonRpcProcess(ProcessBuilder builder, Path stderr, java.util.function.Consumer<String> lineCheck)
            throws IOException {
        this.process = builder.redirectError(stderr.toFile()).start();
        this.stderr = stderr;
        this.lineCheck = lineCheck;
        this.stdin = process.getOutputStream();
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
        }, "json-rpc-process-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code builder}'s command with its stderr in {@code stderr}. */
    public static JsonRpcProcess start(ProcessBuilder builder, Path stderr) throws IOException {
        return new JsonRpcProcess(builder, stderr, line -> { });
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    public void send(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes exactly these bytes (add the newline yourself). */
    public void sendBytes(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** Sends a request and reads stdout until its response. */
    public JsonNode request(int id, String method, String paramsJson) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}");
        return response(id);
    }

    /** Reads stdout until the response to {@code id}, checking every line on the way. */
    public JsonNode response(int id) throws IOException {
        return response(JSON.getNodeFactory().numberNode(id));
    }

    /** Reads stdout until the response whose id equals {@code id} (a string or number node). */
    public JsonNode response(JsonNode id) throws IOException {
        for (String line = readLine(); line != null; line = readLine()) {
            JsonNode message = checkedJsonRpc(line);
            if (message.has("id") && message.get("id").equals(id)) {
                return message;
            }
        }
        fail("stdout ended before the response to request " + id + "; stderr:\n" + stderrText());
        return null;
    }

    /** The next message on stdout, whatever it is. */
    public JsonNode next() throws IOException {
        String line = readLine();
        if (line == null) {
            fail("stdout ended; stderr:\n" + stderrText());
        }
        return checkedJsonRpc(line);
    }

    /** The MCP handshake: initialize, then the initialized notification. */
    public JsonNode initialize() throws IOException {
        JsonNode result = request(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"fleet-test\",\"version\":\"1\"}}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return result;
    }

    public JsonNode callTool(int id, String name) throws IOException {
        return callTool(id, name, "{}");
    }

    /** A tools/call whose {@code arguments} is the given JSON text, verbatim. */
    public JsonNode callTool(int id, String name, String argumentsJson) throws IOException {
        return request(id, "tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + argumentsJson + "}");
    }

    public void closeStdin() throws IOException {
        stdin.close();
    }

    /**
     * Waits for the exit, then checks whatever else reached stdout. {@code timeout} is what a quiet
     * host needs; it is scaled by {@link Patience}, as a JVM's shutdown on a loaded host takes longer.
     */
    public boolean awaitExit(long timeout, TimeUnit unit) throws IOException, InterruptedException {
        Duration patient = Patience.scaled(Duration.ofNanos(unit.toNanos(timeout)));
        boolean exited = process.waitFor(patient.toNanos(), TimeUnit.NANOSECONDS);
        if (exited) {
            for (String line = readLine(); line != null; line = readLine()) {
                checkedJsonRpc(line);
            }
        }
        return exited;
    }

    public List<String> stdoutLines() {
        return List.copyOf(stdoutLines);
    }

    public String stderrText() throws IOException {
        return Files.readString(stderr);
    }

    /** Ends the process (SIGTERM, then SIGKILL if it lingers): for clean-up only, never the behaviour under test. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The next stdout line, or null at its end; fails after {@link #READ_TIMEOUT}, scaled. */
    private String readLine() throws IOException {
        if (stdoutEnded) {
            return null;
        }
        Optional<String> line;
        Duration limit = Patience.scaled(READ_TIMEOUT);
        try {
            line = stdout.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for stdout", e);
        }
        if (line == null) {
            fail("no line on stdout within " + limit.toSeconds() + " s (" + Patience.describe() + "); stderr:\n"
                    + stderrText());
        }
        if (line.isEmpty()) {
            stdoutEnded = true;
            return null;
        }
        return line.get();
    }

    private JsonNode checkedJsonRpc(String line) {
        stdoutLines.add(line);
        JsonNode message;
        try {
            message = JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("stdout carried a line that is not JSON: " + line, e);
        }
        if (message.isArray()) {
            // A batch's answer (a refused batch: an error under each of its requests' ids), each element a message.
            assertFalse(message.isEmpty(), line);
            message.forEach(element -> checkMessage(element, element.toString()));
        } else {
            checkMessage(message, line);
        }
        return message;
    }

    private void checkMessage(JsonNode message, String line) {
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
            lineCheck.accept(line);
        }
    }
}
