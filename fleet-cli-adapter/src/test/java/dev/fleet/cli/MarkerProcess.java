package dev.fleet.cli;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

/**
 * A real {@code sleep} whose command line looks like whatever a test needs (argv[0] set with
 * {@code exec -a}), so the observer sees it as, say, a fleet server. Closed by the test.
 */
final class MarkerProcess implements AutoCloseable {

    final Process process;
    final String marker;

    private MarkerProcess(Process process, String marker) {
        this.process = process;
        this.marker = marker;
    }

    /** A sleeping process whose command line is {@code argv0 + " 300"}. */
    static MarkerProcess start(String argv0) {
        try {
            Process process = new ProcessBuilder(List.of("bash", "-c", "exec -a \"$0\" sleep 300", argv0))
                    .redirectErrorStream(true).start();
            waitUntilExecd(process, argv0);
            return new MarkerProcess(process, argv0);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A process the default patterns take for {@code fleet serve}, with a unique tag in it. */
    static MarkerProcess lookingLikeAServer() {
        return start("java -jar /opt/fleet-test-" + UUID.randomUUID() + "/fleet.jar serve --profile x");
    }

    /** A process that looks like {@code fleet serve --profile profile} serving this registry. */
    static MarkerProcess servingRegistry(java.nio.file.Path registry, String profile) {
        return start("java -jar /opt/fleet-test-" + UUID.randomUUID() + "/fleet.jar serve --profile " + profile
                + " --registry " + registry);
    }

    long pid() {
        return process.pid();
    }

    /** bash replaces itself with sleep; until it has, /proc shows bash's command line. */
    private static void waitUntilExecd(Process process, String argv0) throws IOException {
        java.nio.file.Path cmdline = java.nio.file.Path.of("/proc", String.valueOf(process.pid()), "cmdline");
        for (int i = 0; i < 500; i++) {
            if (new String(java.nio.file.Files.readAllBytes(cmdline)).startsWith(argv0)) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("marker process never exec'd");
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
