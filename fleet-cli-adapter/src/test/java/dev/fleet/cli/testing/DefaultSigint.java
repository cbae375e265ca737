package dev.fleet.cli.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A child started as an interactive shell starts a foreground job: with SIGINT at its default
 * disposition. An ignored signal stays ignored across fork and exec, and a background job of a
 * non-interactive shell ({@code bash -c './mvnw verify &'}) ignores SIGINT, and so does every JVM
 * below it: the build's, the test's, and a child the test starts. A JVM that inherits SIGINT ignored
 * installs no handler for it, so Ctrl-C's signal would test the caller's shell rather than the program.
 * ({@code bash -c 'trap - INT; exec ...'} does not help: a non-interactive shell cannot reset a
 * signal ignored on entry.)
 */
public final class DefaultSigint {

    private static final int SIGINT = 2;
    private static final Optional<List<String>> RESET = reset();

    private DefaultSigint() {
    }

    /** {@code command} run with SIGINT reset to its default, when this host has a way to. */
    public static List<String> command(List<String> command) {
        List<String> wrapped = new ArrayList<>(RESET.orElse(List.of()));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Fails unless {@code process} catches SIGINT (Linux, where {@code /proc} tells; elsewhere
     * nothing is checked): a child that ignores it, or has not installed its handler, would make an
     * interrupt test pass or fail for reasons of its own.
     */
    public static void requireCaught(ProcessHandle process, String context) throws IOException {
        Path status = Path.of("/proc", String.valueOf(process.pid()), "status");
        if (!Files.isReadable(status)) {
            return;
        }
        List<String> lines = Files.readAllLines(status);
        assertTrue(!has(lines, "SigIgn:"), "pid " + process.pid() + " ignores SIGINT (inherited from this test's "
                + "own parents?); the interrupt case would not test the demo\n" + context);
        assertTrue(has(lines, "SigCgt:"), "pid " + process.pid() + " has no SIGINT handler\n" + context);
    }

    private static boolean has(List<String> status, String field) {
        return status.stream().filter(line -> line.startsWith(field)).findFirst()
                .map(line -> new BigInteger(line.substring(field.length()).trim(), 16).testBit(SIGINT - 1))
                .orElse(false);
    }

    /**
     * coreutils' {@code env --default-signal=INT} (8.31 and later) when it works here, else perl
     * (which may reset a disposition it inherited), else nothing ({@link #requireCaught} then says
     * whether the child is fit for the test).
     */
    private static Optional<List<String>> reset() {
        List<List<String>> candidates = List.of(List.of("env", "--default-signal=INT"),
                List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec {$ARGV[0]} @ARGV or die \"exec: $!\\n\""));
        for (List<String> candidate : candidates) {
            List<String> probe = new ArrayList<>(candidate);
            probe.add("true");
            try {
                Process process = new ProcessBuilder(probe).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0) {
                    return Optional.of(candidate);
                }
                process.destroyForcibly();
            } catch (IOException e) {
                // not on this host: the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
