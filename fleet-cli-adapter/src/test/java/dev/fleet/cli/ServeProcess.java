package dev.fleet.cli;

import dev.fleet.testing.JsonRpcProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code fleet serve} from the packaged jar, driven by raw JSON-RPC lines over its stdio
 * ({@link JsonRpcProcess}), in an environment cleared of the caller's fleet variables.
 */
final class ServeProcess extends JsonRpcProcess {

    private final Path stderr;

    private ServeProcess(ProcessBuilder builder, Path stderr) throws IOException {
        super(builder, stderr, line -> { });
        this.stderr = stderr;
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

    /** Any command that execs a {@code fleet serve} (say the main class named directly). */
    static ServeProcess start(List<String> command, String profile, Map<String, String> env)
            throws IOException {
        Path stderr = Files.createTempFile("fleet-serve-" + profile, ".err");
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(env);
        return new ServeProcess(builder, stderr);
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

    /**
     * Closes stdin, as an MCP client does when it leaves, and reads whatever stdout still carries.
     *
     * @return when stdin was closed, in {@link System#nanoTime()}
     */
    long closeStdinAndDrain() throws IOException, InterruptedException {
        long closedAt = System.nanoTime();
        closeStdin();
        awaitExit(60, TimeUnit.SECONDS);
        return closedAt;
    }

    /**
     * Closes stdin, as an MCP client does when it leaves, without reading stdout.
     *
     * @return when stdin was closed, in {@link System#nanoTime()}
     */
    long closeStdinAt() throws IOException {
        long closedAt = System.nanoTime();
        closeStdin();
        return closedAt;
    }

    boolean exitsWithin(long millis) throws InterruptedException {
        return process().waitFor(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        super.close();
        try {
            Files.deleteIfExists(stderr);
        } catch (IOException e) {
            // a temporary file; nothing to do
        }
    }
}
