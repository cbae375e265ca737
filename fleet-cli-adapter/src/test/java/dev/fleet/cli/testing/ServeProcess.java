package dev.fleet.cli.testing;

import dev.fleet.cli.jar.RunningJar;
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
public final class ServeProcess extends JsonRpcProcess {

    private final Path stderr;

    private ServeProcess(ProcessBuilder builder, Path stderr) throws IOException {
        super(builder, stderr, line -> { });
        this.stderr = stderr;
    }

    public static ServeProcess start(Path registry, String profile, Map<String, String> env, String... extra)
            throws IOException {
        return startUnder(List.of(), registry, profile, env, extra);
    }

    /** {@code fleet serve} run by {@code wrapper} (which execs it), e.g. in a pid namespace of its own. */
    public static ServeProcess startUnder(List<String> wrapper, Path registry, String profile, Map<String, String> env,
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
    public static ServeProcess startWith(List<String> jvmOptions, Path registry, Path roster, String profile,
            Map<String, String> env, String... extra) throws IOException {
        List<String> command = new ArrayList<>(serveCommand(jvmOptions, registry, roster, profile));
        command.addAll(List.of(extra));
        return start(command, profile, env);
    }

    /** Any command that execs a {@code fleet serve} (say the main class named directly). */
    public static ServeProcess start(List<String> command, String profile, Map<String, String> env)
            throws IOException {
        Path stderr = Files.createTempFile("fleet-serve-" + profile, ".err");
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        builder.environment().putAll(env);
        return new ServeProcess(builder, stderr);
    }

    /** {@code fleet serve} for this registry, with the test's scoped roster and scratch repository. */
    public static List<String> serveCommand(Path registry, String profile) {
        return serveCommand(List.of(), registry, TestFleets.roster(registry), profile);
    }

    /**
     * The options every documented way of starting a server passes (the launcher, the demo,
     * mcp-config), so that nothing the JVM itself says reaches stdout, then the test's own.
     */
    public static List<String> serveCommand(List<String> jvmOptions, Path registry, Path roster, String profile) {
        List<String> command = new ArrayList<>(List.of(FleetJar.javaBinary()));
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
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
    public long closeStdinAndDrain() throws IOException, InterruptedException {
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
    public long closeStdinAt() throws IOException {
        long closedAt = System.nanoTime();
        closeStdin();
        return closedAt;
    }

    public boolean exitsWithin(long millis) throws InterruptedException {
        return process().waitFor(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * What can be told from outside about where this server is: alive (and its scheduler state) or
     * its exit status, the CPU time it has had, and the last {@code tailLines} of its stderr. A server
     * that has had little CPU was starved; one that has had plenty and logged nothing is stuck.
     */
    public String diagnosis(int tailLines) {
        StringBuilder text = new StringBuilder("pid ").append(pid());
        if (process().isAlive()) {
            text.append(" alive");
            ProcStat.of(pid()).ifPresent(stat -> text.append(String.format(java.util.Locale.ROOT,
                    " (state %s, %.1f s of CPU, %d threads)", stat.state(), stat.cpuSeconds(), stat.threads())));
        } else {
            text.append(" exited ").append(process().exitValue());
        }
        List<String> lines;
        try {
            lines = stderrText().lines().toList();
        } catch (IOException e) {
            return text.append("; its stderr cannot be read: ").append(e).toString();
        }
        if (lines.isEmpty()) {
            return text.append("; nothing on stderr yet").toString();
        }
        text.append("; the last ").append(Math.min(tailLines, lines.size())).append(" of ").append(lines.size())
                .append(" stderr lines:");
        lines.subList(Math.max(0, lines.size() - tailLines), lines.size())
                .forEach(line -> text.append("\n    ").append(line));
        return text.toString();
    }

    /** The few fields of {@code /proc/<pid>/stat} a diagnosis names. */
    public record ProcStat(String state, double cpuSeconds, long threads) {

        /** Clock ticks per second: 100 on every Linux this runs on ({@code getconf CLK_TCK}). */
        private static final double TICKS = 100;

        public static java.util.Optional<ProcStat> of(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
                // The command name (field 2) may hold spaces and parentheses: fields count from its last ')'.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return java.util.Optional.of(new ProcStat(fields[0],
                        (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS, Long.parseLong(fields[17])));
            } catch (IOException | RuntimeException e) {
                return java.util.Optional.empty();
            }
        }
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
