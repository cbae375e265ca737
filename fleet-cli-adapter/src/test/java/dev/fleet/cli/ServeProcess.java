package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code fleet serve} from the real jar, driven over raw pipes: the test owns stdin (so it can
 * close it, as a departing MCP client does) and sees every byte the server writes to stdout.
 */
final class ServeProcess implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final Process process;
    final Path stderr;
    private final OutputStream stdin;
    private final BufferedReader stdout;
    /** Every line read from stdout so far, each checked to be a JSON-RPC 2.0 message. */
    final List<String> stdoutLines = new ArrayList<>();

    private ServeProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ServeProcess start(Path registry, String profile, Map<String, String> env, String... extra)
            throws IOException {
        return startUnder(List.of(), registry, profile, env, extra);
    }

    /** {@code fleet serve} run by {@code wrapper} (which execs it), e.g. in a pid namespace of its own. */
    static ServeProcess startUnder(List<String> wrapper, Path registry, String profile, Map<String, String> env,
            String... extra) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(serveCommand(registry, profile));
        command.addAll(List.of(extra));
        return start(command, profile, env);
    }

    /**
     * {@code fleet serve} with JVM options of the test's own (say a small heap, so that fifty fit)
     * and a roster of its own, which must be scoped to this registry (see {@link TestFleets}).
     */
    static ServeProcess startWith(List<String> jvmOptions, Path registry, Path roster, String profile,
            Map<String, String> env, String... extra) throws IOException {
        List<String> command = new ArrayList<>(serveCommand(jvmOptions, registry, roster, profile));
        command.addAll(List.of(extra));
        return start(command, profile, env);
    }

    private static ServeProcess start(List<String> command, String profile, Map<String, String> env)
            throws IOException {
        Path stderr = Files.createTempFile("fleet-serve-" + profile, ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(env);
        return new ServeProcess(builder.start(), stderr);
    }

    /** {@code fleet serve} for this registry, with the test's scoped roster and scratch repository. */
    static List<String> serveCommand(Path registry, String profile) {
        return serveCommand(List.of(), registry, TestFleets.roster(registry), profile);
    }

    static List<String> serveCommand(List<String> jvmOptions, Path registry, Path roster, String profile) {
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", FleetJar.JAR.toString(), "serve", "--profile", profile,
                "--registry", registry.toString(), "--roster", roster.toString(),
                "--repository-root", TestFleets.repository(registry).toString()));
        return command;
    }

    long pid() {
        return process.pid();
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    JsonNode request(int id, String method, String params) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            JsonNode message = jsonRpc(line);
            if (message.has("id") && message.get("id").asInt() == id) {
                return message;
            }
        }
        fail("stdout ended before the response to " + method + "; stderr:\n" + Files.readString(stderr));
        return null;
    }

    void initialize() throws IOException {
        request(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"fleet-it\",\"version\":\"1\"}}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    /**
     * Closes stdin, as an MCP client does when it leaves, without reading stdout.
     *
     * @return when stdin was closed, in {@link System#nanoTime()}
     */
    long closeStdin() throws IOException {
        long closedAt = System.nanoTime();
        stdin.close();
        return closedAt;
    }

    /**
     * Closes stdin, as an MCP client does when it leaves, and reads whatever stdout still carries.
     *
     * @return when stdin was closed, in {@link System#nanoTime()}
     */
    long closeStdinAndDrain() throws IOException {
        long closedAt = System.nanoTime();
        stdin.close();
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            jsonRpc(line);
        }
        return closedAt;
    }

    private JsonNode jsonRpc(String line) throws IOException {
        stdoutLines.add(line);
        JsonNode message = JSON.readTree(line);
        assertEquals("2.0", message.path("jsonrpc").asText(), "not JSON-RPC on stdout: " + line);
        return message;
    }

    String stderrText() throws IOException {
        return Files.readString(stderr);
    }

    boolean exitsWithin(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(stderr);
    }
}
