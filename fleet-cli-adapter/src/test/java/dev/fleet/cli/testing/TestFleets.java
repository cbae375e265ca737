package dev.fleet.cli.testing;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What keeps a test's fleet its own: a roster whose server pattern matches only command lines that
 * name the test's registry (so servers elsewhere on the host, or in a parallel build, neither break
 * the test nor are counted), a scratch repository with a revision, and an environment without the
 * caller's fleet variables or JVM options.
 */
public final class TestFleets {

    /** Variables that would point a process at another fleet or another password, or make a JVM talk on stderr. */
    static final List<String> FOREIGN_ENVIRONMENT = List.of("FLEET_REGISTRY", "FLEET_ROSTER", "FLEET_JAVA_OPTS",
            "FLEET_HOST_ID", "GITEA_MCP_COHORT_ID", "XDG_STATE_HOME", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
            "PGPASSWORD", "PGPASSFILE");

    public static final String HEAD = "0123456789abcdef0123456789abcdef01234567";

    private TestFleets() {
    }

    /** The default roster, scoped to servers serving {@code registry}; written beside it. */
    public static Path roster(Path registry) {
        return roster(registry, "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", \"role\": \"author\"}, "
                + "{\"namespace\": \"gitea-reviewer\", \"profile\": \"prgs-reviewer\", \"role\": \"reviewer\"}, "
                + "{\"namespace\": \"gitea-controller\", \"profile\": \"prgs-controller\", \"role\": \"controller\"}, "
                + "{\"namespace\": \"gitea-merger\", \"profile\": \"prgs-merger\", \"role\": \"merger\"}, "
                + "{\"namespace\": \"gitea-reconciler\", \"profile\": \"prgs-reconciler\", \"role\": \"reconciler\"}",
                "roster.json");
    }

    /** A roster of the given member objects (JSON), scoped to servers serving {@code registry}. */
    public static Path roster(Path registry, String membersJson, String fileName) {
        String pattern = serverPattern(registry).replace("\\", "\\\\");
        return write(registry.resolveSibling(fileName), "{\"binding\": {\"remote\": \"prgs\", "
                + "\"org\": \"Scaled-Tech-Consulting\", \"repo\": \"Gitea-Tools\"}, \"members\": [" + membersJson
                + "], \"server_process_patterns\": [\"" + pattern + "\"]}");
    }

    /** Matches a {@code fleet serve} command line that names this registry. */
    public static String serverPattern(Path registry) {
        return "fleet\\.jar serve .*--registry " + Pattern.quote(registry.toString()) + "(\\s|$)";
    }

    /** A checkout whose HEAD names {@link #HEAD}, beside the registry. */
    public static Path repository(Path registry) {
        Path root = registry.resolveSibling("repository");
        write(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        write(root.resolve(".git/refs/heads/main"), HEAD + "\n");
        return root;
    }

    /** Waits (60 s on a quiet host, scaled by {@link Patience}) until the registry holds exactly {@code count} running rows. */
    public static List<RegistryRow> awaitRunningRows(Path registry, int count) throws InterruptedException {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        while (System.nanoTime() < deadline) {
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            if (read.readable() && read.rows().size() == count) {
                return read.rows();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never saw " + count + " running rows (" + Patience.describe() + "): "
                + reader.readAll());
    }

    /** Removes the caller's fleet variables and JVM options from a child's environment. */
    public static void isolate(Map<String, String> environment) {
        FOREIGN_ENVIRONMENT.forEach(environment::remove);
        environment.keySet().removeIf(name -> name.startsWith("GITEA_MCP_"));
    }

    /**
     * Writes {@code content} unless the file already holds it: servers starting together read these
     * files while later ones are being configured, and a rewrite would show them an empty HEAD.
     */
    private static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            if (Files.isRegularFile(file) && Files.readString(file).equals(content)) {
                return file;
            }
            return Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
