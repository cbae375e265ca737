package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.JsonRpcProcess;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A TypeScript SDK client script that tells its progress as steps, one JSON-RPC notification line each
 * ({@code {"method": "step", "params": {"step": NAME, ...}}}), read with {@link JsonRpcProcess} while it
 * runs, so that a test can act between two steps (kill a member, write a line to its stdin). Its
 * configuration is one JSON file, its argument.
 */
final class NodeStepClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeStepClient() {
    }

    /** Starts {@code node SCRIPT CONFIG} in the script's directory, with {@code config} written to {@code dir}. */
    static JsonRpcProcess start(Path script, Map<String, Object> config, Path dir) throws IOException {
        Path configFile = dir.resolve(script.getFileName() + ".json");
        JSON.writeValue(configFile.toFile(), config);
        ProcessBuilder node = new ProcessBuilder("node", script.toString(), configFile.toString())
                .directory(script.getParent().toFile());
        return JsonRpcProcess.start(node, dir.resolve(script.getFileName() + ".err"));
    }

    /**
     * The environment a client gives the member it starts over stdio: this one, cleared of the caller's
     * fleet variables, plus {@code extra} (the TypeScript SDK passes only a few variables by default).
     */
    static Map<String, String> memberEnvironment(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        TestFleets.isolate(env);
        env.putAll(extra);
        return env;
    }

    /** The next line of the client, which must be {@code step}: its fields. */
    static JsonNode step(JsonRpcProcess client, String step) throws IOException {
        JsonNode line = client.next();
        assertTrue(line != null, () -> "the client ended before '" + step + "'" + stderr(client));
        assertEquals(step, line.path("params").path("step").asText(), () -> line + stderr(client));
        return line.path("params");
    }

    /** The steps named {@code step} the client has printed so far. */
    static List<JsonNode> printed(JsonRpcProcess client, String step) {
        return client.stdoutLines().stream().map(NodeStepClient::read)
                .filter(line -> step.equals(line.path("params").path("step").asText()))
                .map(line -> line.path("params")).toList();
    }

    /** Waits (bounded, scaled) until {@code member} says on stderr that it registered. */
    static void awaitRegistered(ServeProcess member) throws InterruptedException {
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
            try {
                return member.stderrText().contains("registered as runtime");
            } catch (IOException e) {
                return false;
            }
        }, "the member registers");
    }

    /** The client's stderr, for a failure message. */
    static String stderr(JsonRpcProcess client) {
        try {
            return "\nclient stderr:\n" + client.stderrText();
        } catch (IOException e) {
            return "";
        }
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
