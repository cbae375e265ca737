package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * An operator's own MCP server on the official TypeScript SDK ({@code src/test/node/server.mjs}), for
 * the relay's tests to wrap, installed with its locked dependencies into {@code target/node-mcp} by
 * {@code npm ci} from the npm registry. The same directory, from the same one {@code package.json},
 * holds the TypeScript SDKs' clients ({@code client.mjs}, run by {@link NodeClient}): one install, so
 * that no two {@code npm ci} ever race in it. Without {@code node} and {@code npm} a run under CI
 * ({@code CI} set; {@code .ci/run} installs Debian's nodejs and npm first) fails; elsewhere the test is
 * skipped, saying why.
 */
public final class NodeMcpChild {

    static final Path SOURCE = Path.of("src/test/node").toAbsolutePath();
    public static final Path INSTALLED = Path.of("target/node-mcp").toAbsolutePath();
    static final Path SERVER = INSTALLED.resolve("server.mjs");
    /** The same operator's server on the TypeScript SDK 2.x, which serves MCP 2026-07-28 ({@code serveStdio}). */
    static final Path MODERN_SERVER = INSTALLED.resolve("modern-server.mjs");
    /** {@code npm ci} fetches about a hundred packages: minutes at most, or the registry is unreachable. */
    private static final long INSTALL_MINUTES = 5;

    private NodeMcpChild() {
    }

    /**
     * Makes {@link #SERVER} and the clients runnable: copies the scripts and the package files to
     * {@link #INSTALLED} and runs {@code npm ci} there, unless every dependency is installed already at
     * its pinned version. Does nothing without {@code node} and {@code npm}: {@link #requireNodeAndNpm}
     * says so in each test. Synchronized: test classes that share the directory never install at once.
     */
    public static void install() throws IOException, InterruptedException {
        install(SOURCE, INSTALLED, "server.mjs", "client.mjs", "modern-server.mjs", "both-eras-client.mjs",
                "host-client.mjs", "relay-listen-client.mjs");
    }

    /**
     * Copies {@code scripts} and the package files from {@code source} to {@code installed} and runs
     * {@code npm ci} there, unless every dependency is installed already at its pinned version (another
     * package set than the server's, such as the modern-era clients', lives in a directory of its own).
     */
    static synchronized void install(Path source, Path installed, String... scripts) throws IOException,
            InterruptedException {
        if (!missing().isEmpty()) {
            return;
        }
        Files.createDirectories(installed);
        List<String> files = new ArrayList<>(List.of("package.json", "package-lock.json"));
        files.addAll(List.of(scripts));
        for (String file : files) {
            Files.copy(source.resolve(file), installed.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (notAsPinned(installed).isEmpty()) {
            return;
        }
        Path log = installed.resolve("npm-ci.log");
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(installed.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!npm.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
            npm.descendants().forEach(ProcessHandle::destroyForcibly);
            npm.destroyForcibly();
            fail("npm ci in " + installed + " did not finish within " + INSTALL_MINUTES + " minutes (is the npm "
                    + "registry reachable?); its output: " + tail(log));
        }
        if (npm.exitValue() != 0) {
            fail("npm ci in " + installed + " exited " + npm.exitValue() + "; its output: " + tail(log));
        }
        List<String> wrong = notAsPinned(installed);
        if (!wrong.isEmpty()) {
            fail("npm ci in " + installed + " did not install " + wrong + "; its output: " + tail(log));
        }
    }

    /** The dependencies of the installed {@code package.json} not installed at their pinned version, as NAME@VERSION. */
    private static List<String> notAsPinned(Path installed) throws IOException {
        List<String> wrong = new ArrayList<>();
        JsonNode dependencies = new ObjectMapper().readTree(installed.resolve("package.json").toFile())
                .path("dependencies");
        for (Iterator<Map.Entry<String, JsonNode>> it = dependencies.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> entry = it.next();
            Path dependency = installed.resolve("node_modules").resolve(entry.getKey()).resolve("package.json");
            String pinned = entry.getValue().asText();
            if (!Files.isRegularFile(dependency) || !pinned.equals(version(dependency, "/version"))) {
                wrong.add(entry.getKey() + "@" + pinned);
            }
        }
        return wrong;
    }

    /** The installed server run by node directly: {@code node .../server.mjs}. */
    static List<String> direct() {
        return List.of("node", SERVER.toString());
    }

    /**
     * The installed server behind {@code npx}, as an operator's MCP configuration often has it:
     * {@code npm exec} (a node process) runs {@code sh -c}, which runs {@code node .../server.mjs}, so
     * the server is the wrapper's grandchild. {@code --no-install}: nothing is fetched. With
     * {@code linger} the server outlives its stdin's end until it is signalled.
     */
    static List<String> throughNpx(boolean linger) {
        return linger ? List.of("npx", "--no-install", "node", SERVER.toString(), "--linger")
                : List.of("npx", "--no-install", "node", SERVER.toString());
    }

    /** Whether {@code pid} is this server run by node (not the {@code npm exec} above it, also a node). */
    static boolean isTheServer(long pid) {
        try {
            String[] argv = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).split("\0");
            return argv.length >= 2 && argv[0].equals("node") && argv[1].equals(SERVER.toString());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Fails under CI, and skips the test elsewhere, without {@code node} and {@code npm} on {@code PATH}:
     * called by each test, so that each is reported skipped with the reason.
     */
    public static void requireNodeAndNpm() {
        List<String> missing = missing();
        if (missing.isEmpty()) {
            return;
        }
        String message = "the tests against the TypeScript SDKs need " + String.join(" and ", missing)
                + " on PATH: install Debian's nodejs and npm (apt-get install nodejs npm), as .ci/run does";
        if (System.getenv("CI") != null) {
            fail(message + " (required under CI)");
        }
        Assumptions.abort(message + "; skipped outside CI");
    }

    private static List<String> missing() {
        return List.of("node", "npm").stream().filter(command -> onPath(command).isEmpty()).toList();
    }

    private static Optional<Path> onPath(String command) {
        String path = System.getenv("PATH");
        return path == null ? Optional.empty() : java.util.Arrays.stream(path.split(":"))
                .map(directory -> Path.of(directory.isEmpty() ? "." : directory).resolve(command))
                .filter(file -> Files.isRegularFile(file) && Files.isExecutable(file)).findFirst();
    }

    private static String version(Path packageJson, String pointer) throws IOException {
        return new ObjectMapper().readTree(packageJson.toFile()).at(pointer).asText("");
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n    ", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
