package dev.fleet.cli;

import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.sqlite.RegistryLocation;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * A head start for a one-shot verb whose first work is opening a SQLite registry. Before its first
 * row such a verb loads the SQLite driver (its native library, and its logging, whose date formats
 * initialise the JDK's locale data) and the JDK's SHA-256 (the host id, the digest): 60-80 ms on the
 * main thread of a cold JVM. This does that on a second thread from the first line of {@code main},
 * while picocli builds the verb's model on the first (docs/PERFORMANCE.md, seventh round). It changes
 * nothing the verb does: the verb still loads both where it did, and finds them loaded, or waits for
 * the second thread to finish (a class is initialised once per JVM); whatever failed here, the verb
 * meets and reports. A server is left out: it prepares its registry on a thread of its own ({@code
 * SqliteRegistryWriter.prepare}), and so is a verb run for its help or version, or on a PostgreSQL
 * registry.
 *
 * <p>Since it starts before the command line is parsed, a verb that then fails on its options has
 * loaded the driver for nothing: its exit waits for that (about a tenth of a second), and where the
 * driver's native library cannot be cached, the driver's one line about it comes beside the usage error.
 */
final class RegistryHeadStart {

    /** The verbs whose first work is opening a registry (reading it; {@code registry migrate} writes it), which may be a SQLite file. */
    private static final Set<String> READ_A_REGISTRY = Set.of("assess", "watch", "wait", "dashboard", "registry");
    private static final Set<String> ANSWER_WITHOUT_A_REGISTRY = Set.of("--help", "-h", "--version", "-V");
    private static final String REGISTRY_OPTION = "--registry";
    /** How long the exit waits for a head start still running: normally done long before; never a hang. */
    private static final Duration EXIT_WAIT = Duration.ofSeconds(1);

    private static final RegistryHeadStart NONE = new RegistryHeadStart(null);

    private final Thread thread;

    private RegistryHeadStart(Thread thread) {
        this.thread = thread;
    }

    /** Starts the head start that {@code args} call for, if any. */
    static RegistryHeadStart begin(Map<String, String> environment, String... args) {
        if (!wanted(environment, args)) {
            return NONE;
        }
        Thread thread = new Thread(RegistryHeadStart::load, "fleet-registry-head-start");
        thread.setDaemon(true);
        thread.start();
        return new RegistryHeadStart(thread);
    }

    /**
     * Whether {@code args} name a verb that opens a registry first, not for its help or version, and
     * the registry named is not a PostgreSQL one: {@code --registry}'s, else {@code FLEET_REGISTRY}'s.
     * Only a guess at what the command line will do, before picocli parses it: a wrong one costs the
     * second core some work, or the verb its head start.
     */
    static boolean wanted(Map<String, String> environment, String... args) {
        if (args.length == 0 || !READ_A_REGISTRY.contains(args[0])) {
            return false;
        }
        if (Arrays.stream(args).anyMatch(arg -> ANSWER_WITHOUT_A_REGISTRY.contains(arg)
                || PostgresLocation.isUrl(arg.substring(arg.indexOf('=') + 1)))) {
            return false;
        }
        boolean namesARegistry = Arrays.stream(args).anyMatch(arg -> arg.equals(REGISTRY_OPTION)
                || arg.startsWith(REGISTRY_OPTION + "="));
        return namesARegistry || !PostgresLocation.isUrl(environment.get(RegistryLocation.REGISTRY_ENV));
    }

    /**
     * Waits, briefly, for a head start still running: the process is about to exit, and a driver
     * copying its native library into the cache should finish the copy rather than be cut off.
     */
    void finish() {
        if (thread == null) {
            return;
        }
        try {
            thread.join(EXIT_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a head start was begun (for tests). */
    boolean begun() {
        return thread != null;
    }

    /** Whether a head start begun is still running (for tests). */
    boolean running() {
        return thread != null && thread.isAlive();
    }

    private static void load() {
        SqliteRegistryReader.loadDriver();
        try {
            MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every JDK has it; the digest's own use reports it if not.
        }
    }
}
