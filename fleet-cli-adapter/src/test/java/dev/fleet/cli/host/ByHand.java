package dev.fleet.cli.host;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A server started by hand from a terminal: {@code script -qfc COMMAND /dev/null} gives it a
 * pseudo-terminal for its stdin and stdout, as a shell in a terminal window does.
 */
final class ByHand {

    private ByHand() {
    }

    /** Starts {@code argv} on a terminal; returns the server's pid once it runs {@code argv}. */
    static long start(List<String> argv, TestProcesses processes) throws IOException, InterruptedException {
        String command = argv.stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" ", "exec ", ""));
        Process script = new ProcessBuilder("script", "-qfc", command, "/dev/null")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        processes.add(script);
        String wanted = String.join("\0", argv);
        long[] server = {0};
        Patience.await(Duration.ofSeconds(60), Duration.ofMillis(20), () -> {
            Optional<ProcessHandle> found = script.descendants().filter(p -> cmdline(p.pid()).equals(wanted)).findFirst();
            found.ifPresent(p -> server[0] = p.pid());
            return found.isPresent();
        }, "the server started on a terminal runs " + argv);
        processes.add(server[0]);
        return server[0];
    }

    private static String cmdline(long pid) {
        try {
            String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
            return raw.endsWith("\0") ? raw.substring(0, raw.length() - 1) : raw;
        } catch (IOException e) {
            return "";
        }
    }
}
