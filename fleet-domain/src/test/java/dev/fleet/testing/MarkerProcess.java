package dev.fleet.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code sleep} whose command line looks like whatever a test needs ({@code argv[0]} set with
 * {@code exec -a}), so an observer sees it as, say, a fleet server. Only test code starts (and, on
 * close, destroys) processes: the code under test never does. The one marker process of every
 * module's tests.
 */
public final class MarkerProcess implements AutoCloseable {

    private final Process process;
    private final String commandLine;
    private final List<String> argv;

    private MarkerProcess(Process process, String commandLine, List<String> argv) {
        this.process = process;
        this.commandLine = commandLine;
        this.argv = argv;
    }

    /**
     * {@code sleep 600 [arguments]} running under {@code argv0}. bash execs sleep in place, so the pid
     * stays the one returned; this waits until the exec has happened.
     */
    public static MarkerProcess start(String argv0, String... sleepArguments) {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "exec -a \"$0\" sleep 600 \"$@\"", argv0));
        command.addAll(List.of(sleepArguments));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            awaitCommandLine(process, argv0 + "\0");
            List<String> shown = new ArrayList<>(List.of(argv0, "600"));
            shown.addAll(List.of(sleepArguments));
            return new MarkerProcess(process, String.join(" ", shown), List.copyOf(shown));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A process under {@code argv0} whose arguments are exactly {@code arguments}, each one argument however
     * many spaces it holds (a secret option's value, a header): a {@code bash} renamed with {@code exec -a},
     * waiting on its stdin with the builtin {@code read} (so no child to outlive it). Its command line is
     * {@code argv0 -c read -t 600 argv0 arguments...}; {@link #argv()} gives it apart.
     */
    public static MarkerProcess withArguments(String argv0, String... arguments) {
        List<String> argv = new ArrayList<>(List.of(argv0, "-c", "read -t 600", argv0));
        argv.addAll(List.of(arguments));
        List<String> command = new ArrayList<>(List.of("bash", "-c", "exec -a \"$0\" bash -c 'read -t 600' \"$0\" \"$@\"",
                argv0));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            awaitCommandLine(process, argv0 + "\0-c\0");
            return new MarkerProcess(process, String.join(" ", argv), List.copyOf(argv));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A process the default server patterns take for {@code fleet serve}, with a unique tag in it. */
    public static MarkerProcess lookingLikeAServer() {
        return start("java -jar /opt/fleet-test-" + UUID.randomUUID() + "/fleet.jar serve --profile x");
    }

    /** A process that looks like {@code fleet serve --profile profile} serving this registry. */
    public static MarkerProcess servingRegistry(Path registry, String profile) {
        return start("java -jar /opt/fleet-test-" + UUID.randomUUID() + "/fleet.jar serve --profile " + profile
                + " --registry " + registry);
    }

    /** A unique marker for argv[0], so that a pattern finds exactly one process on the host. */
    public static String marker() {
        return "FLEETMARKER-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    /** A valid, unique extra duration for sleep, so the JDK's view (which hides argv[0]) is unique too. */
    public static String token() {
        return "0.000" + ThreadLocalRandom.current().nextInt(100_000, 1_000_000);
    }

    /**
     * Waits until {@code process}'s command line starts with {@code prefix}: a wait for the child to
     * be ready, not an assertion on speed, so it gives up only after a minute.
     */
    public static void awaitCommandLine(Process process, String prefix) {
        Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            try {
                if (new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).startsWith(prefix)) {
                    return;
                }
                Thread.sleep(5);
            } catch (IOException e) {
                // not there yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("child " + process.pid() + " never showed " + prefix.trim());
    }

    public Process process() {
        return process;
    }

    /** Its full command line as an observer joins it: argv[0], then sleep's arguments. */
    public String commandLine() {
        return commandLine;
    }

    /** Its arguments apart, argv[0] first, as {@code /proc/PID/cmdline} holds them. */
    public List<String> argv() {
        return argv;
    }

    public long pid() {
        return process.pid();
    }

    /** Kills it and reaps it, so no test leaves a process (or a zombie) behind. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
