package dev.fleet.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code promtool check metrics}, Prometheus' own linter of metrics expositions (Debian's {@code prometheus} package), run
 * as a real process on exposition bytes. Where it is missing, a run under CI ({@code CI} set, as
 * {@code .ci/run} runs, which installs it first) or with {@code -Dfleet.promtool=required} fails;
 * elsewhere (a developer's machine without the package) the check is skipped, saying why.
 */
public final class Promtool {

    /** What one check said: its exit status and everything it printed. */
    public record Check(int status, String output) {
        public boolean clean() {
            return status == 0 && output.isBlank();
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    private Promtool() {
    }

    /** The promtool on {@code PATH}; fails or skips (see above) when there is none. */
    public static Path require() {
        Optional<Path> found = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, "promtool"))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isPresent()) {
            return found.get();
        }
        String missing = "promtool is not on PATH: install Debian's prometheus package (apt-get install prometheus), "
                + "as .ci/run does";
        if (System.getenv("CI") != null || "required".equals(System.getProperty("fleet.promtool"))) {
            fail(missing + " (required under CI and with -Dfleet.promtool=required)");
        }
        Assumptions.abort(missing + "; skipped outside CI");
        throw new AssertionError("unreachable");
    }

    /** {@code promtool check metrics < body}. */
    public static Check checkMetrics(Path promtool, byte[] body) throws IOException, InterruptedException {
        Path output = Files.createTempFile("promtool", ".out");
        try {
            Process process = new ProcessBuilder(promtool.toString(), "check", "metrics")
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(body);
            }
            if (!process.waitFor(Patience.scaled(WAIT).toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                fail("promtool check metrics did not finish within " + Patience.scaled(WAIT));
            }
            return new Check(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
