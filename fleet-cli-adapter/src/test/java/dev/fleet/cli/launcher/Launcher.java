package dev.fleet.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code ./fleet} launcher at the repository root, as the launcher tests start it: in an
 * environment cleared of the caller's fleet variables, its streams read to the end.
 */
public final class Launcher {

    public static final Path PATH = Path.of("..", "fleet").toAbsolutePath().normalize();
    /** The JVM options the launcher reads, from the checkout (the jar holds them too), relative to it. */
    static final String JVM_OPTIONS = "fleet-cli-adapter/src/main/resources/dev/fleet/cli/jar/jvm.options";

    private Launcher() {
    }

    /** {@code launcher args}, not started: the real one, a symbolic link to it, or a copy. */
    static ProcessBuilder launcher(Path launcher, String... args) {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        return builder;
    }

    /** Started with its stderr piped, to be read by {@link #finish}. */
    static Process start(ProcessBuilder builder) throws Exception {
        return builder.redirectError(ProcessBuilder.Redirect.PIPE).start();
    }

    /**
     * Its exit code and everything it wrote, once it has exited (within 120 s; a launcher still running
     * then is killed and fails the test, rather than hanging the suite on its open streams).
     */
    static FleetJar.Run finish(Process process) throws Exception {
        CompletableFuture<String> err = readAll(process.getErrorStream());
        CompletableFuture<String> out = readAll(process.getInputStream());
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the launcher did not exit within 120 s");
        }
        return new FleetJar.Run(process.exitValue(), out.get(120, TimeUnit.SECONDS), err.get(120, TimeUnit.SECONDS));
    }

    /** Read on a thread of its own: a blocking read must never wait for a pool thread another read holds. */
    private static CompletableFuture<String> readAll(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(stream.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, task -> {
            Thread reader = new Thread(task, "launcher-output");
            reader.setDaemon(true);
            reader.start();
        });
    }

    /** What the packaged jar says to {@code --version}: what the launcher must print when it runs it. */
    static String version() {
        return FleetJar.run("--version").stdout();
    }

    static void executable(Path file, String script) throws Exception {
        Files.writeString(file, script);
        assertTrue(file.toFile().setExecutable(true));
    }
}
