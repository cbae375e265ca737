package dev.fleet.cli.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One running MCP client program of a {@link HostHome} (host_client.py as {@code claude} or
 * {@code codex}, the TypeScript SDK's client as {@code gemini}): it starts its configured servers over
 * pipes and prints each generation's pids; the test tells it to reload, or kills it. Every pid it
 * reports is handed to {@link TestProcesses}, so that nothing outlives the test.
 */
final class ClientProgram {

    /** One server the client started. */
    record Started(String name, long pid) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final TestProcesses processes;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ClientProgram(Process process, TestProcesses processes, Path stderr) {
        this.process = process;
        this.processes = processes;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "client " + process.pid() + " stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts client {@code kind} of {@code home} with {@code options} (e.g. {@code --twice}). */
    static ClientProgram start(HostHome home, String kind, TestProcesses processes, String... options)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(home.clientProgram(kind).toString()));
        command.addAll(List.of(options));
        Path stderr = Files.createTempFile(home.bin(), kind, ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(home.env());
        builder.directory(home.home().toFile());
        Process process = builder.start();
        processes.add(process);
        return new ClientProgram(process, processes, stderr);
    }

    long pid() {
        return process.pid();
    }

    /** The next generation the client started, once each of its servers has answered (or not) initialize. */
    List<Started> awaitGeneration() throws IOException, InterruptedException {
        String line = lines.poll(Patience.scaled(Duration.ofSeconds(120)).toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("client " + pid() + " reported no generation (" + Patience.describe()
                    + "); its stderr: " + Files.readString(stderr));
        }
        List<Started> started = new ArrayList<>();
        for (JsonNode server : JSON.readTree(line).get("servers")) {
            started.add(new Started(server.get("name").asText(), server.get("pid").asLong()));
            processes.add(server.get("pid").asLong());
        }
        return started;
    }

    /** Starts every server again, leaving the old generation running; returns the new one. */
    List<Started> reload() throws IOException, InterruptedException {
        tell("reload");
        return awaitGeneration();
    }

    /** SIGKILL to the client alone: its servers stay, and see no EOF unless it held their last pipe end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tell(String command) throws IOException {
        OutputStream stdin = process.getOutputStream();
        stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    private void readLines() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // The client is gone: nothing more to read.
        }
    }
}
