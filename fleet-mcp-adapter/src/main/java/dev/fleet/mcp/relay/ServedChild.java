package dev.fleet.mcp.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's own server: started as this process's child without a shell, in a process group of
 * its own, and ended with everything it started (the contract, §12). Its stderr is this process's;
 * its stdin and stdout are the relay's.
 *
 * <p>The JDK cannot put a child in a new process group, so the child is started through
 * {@code setsid} (util-linux), which calls {@code setsid(2)} and then executes the command in the
 * same process: the child's pid is the command's, and its group is its own. Where {@code setsid}
 * is missing the child shares this process's group, and only its descendants are reached.
 *
 * <p>Descendants are looked at every second while it runs ({@link #track}): an {@code npx} or
 * {@code sh -c} wrapper's children are reparented when the wrapper exits, after which the child's
 * tree no longer shows them, but they are still ended. Signals go through {@link ProcessHandle},
 * which checks a process's start before it signals, so a recycled pid is never signalled.
 */
public final class ServedChild {

    /** How long a child has to exit on its own once its stdin is closed (the contract). */
    public static final Duration EXIT_GRACE = Duration.ofSeconds(5);
    /** How long the tree has after SIGTERM before SIGKILL (the contract). */
    public static final Duration TERM_GRACE = Duration.ofSeconds(2);
    /** Descendants remembered, at most: a server that forks without end is still ended by its group. */
    private static final int MAX_SEEN = 4096;
    private static final Logger LOG = LoggerFactory.getLogger(ServedChild.class);

    private final Process process;
    private final List<String> argv;
    private final boolean ownGroup;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    private ServedChild(Process process, List<String> argv, boolean ownGroup) {
        this.process = process;
        this.argv = List.copyOf(argv);
        this.ownGroup = ownGroup;
    }

    /** A command that cannot be started: not found on PATH, not executable, or refused by the OS. */
    public static final class CannotStart extends Exception {
        CannotStart(String message) {
            super(message);
        }
    }

    /**
     * Starts {@code argv} (its first word found on {@code PATH} as {@code execvp} would) with this
     * process's environment changed by {@code environment} (a null value removes the variable).
     */
    public static ServedChild start(List<String> argv, Map<String, String> environment) throws CannotStart {
        if (argv.isEmpty() || argv.get(0).isEmpty()) {
            throw new CannotStart("no command to start after --");
        }
        String command = argv.get(0);
        if (findExecutable(command, System.getenv("PATH")).isEmpty()) {
            throw new CannotStart("cannot start '" + command + "': " + (command.contains("/")
                    ? "no such executable file" : "not found on PATH"));
        }
        Optional<Path> setsid = findExecutable("setsid", System.getenv("PATH"));
        List<String> started = new ArrayList<>();
        setsid.ifPresent(path -> {
            started.add(path.toString());
            started.add("--");
        });
        started.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(started).redirectError(ProcessBuilder.Redirect.INHERIT);
        environment.forEach((name, value) -> {
            if (value == null) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        try {
            ServedChild child = new ServedChild(builder.start(), argv, setsid.isPresent());
            if (setsid.isEmpty()) {
                LOG.warn("no setsid on PATH: the wrapped server shares this process's group");
            }
            return child;
        } catch (IOException e) {
            throw new CannotStart("cannot start '" + command + "': " + e.getMessage());
        }
    }

    /** The command, as given after {@code --}. */
    public List<String> argv() {
        return argv;
    }

    public long pid() {
        return process.pid();
    }

    /** The child's stdin, which the relay writes the client's messages to. */
    OutputStream stdin() {
        return process.getOutputStream();
    }

    /** The child's stdout, which the relay reads the server's messages from. */
    InputStream stdout() {
        return process.getInputStream();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the child to exit; its status (128 + N for signal N). */
    int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** Remembers the child's descendants now, so they are ended even once reparented. */
    void track() {
        try (Stream<ProcessHandle> descendants = process.descendants()) {
            descendants.limit(MAX_SEEN).forEach(handle -> {
                if (seen.size() < MAX_SEEN) {
                    seen.add(handle);
                }
            });
        }
        seen.removeIf(handle -> !ProcessGroup.runs(handle));
    }

    /**
     * Ends the child and everything it started, bounded: after {@code stdinClosed} it has
     * {@link #EXIT_GRACE} to exit by itself, then SIGTERM to its group and every descendant seen,
     * {@link #TERM_GRACE}, then SIGKILL to them. Returns once they are gone (or SIGKILL was sent).
     *
     * @param passSignal true when this member was itself told to stop by a signal: the child is sent
     *     SIGTERM at once, beside its closed stdin
     */
    void end(Runnable closeStdin, boolean passSignal) throws InterruptedException {
        track();
        closeStdin.run();
        if (passSignal) {
            process.destroy();
        }
        if (!process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.info("the wrapped server (pid {}) did not exit within {} s: sending SIGTERM to its processes",
                    pid(), EXIT_GRACE.toSeconds());
        }
        signalTree(false);
        if (!treeGoneWithin(TERM_GRACE)) {
            LOG.info("the wrapped server's processes outlived SIGTERM by {} s: sending SIGKILL", TERM_GRACE.toSeconds());
            signalTree(true);
            treeGoneWithin(Duration.ofSeconds(1));
        }
    }

    private void signalTree(boolean kill) {
        track();
        List<ProcessHandle> targets = new ArrayList<>(seen);
        targets.add(process.toHandle());
        if (ownGroup) {
            targets.addAll(ProcessGroup.members(pid()));
        }
        for (ProcessHandle target : targets) {
            if (ProcessGroup.runs(target)) {
                boolean sent = kill ? target.destroyForcibly() : target.destroy();
                LOG.debug("{} to pid {}: {}", kill ? "SIGKILL" : "SIGTERM", target.pid(), sent ? "sent" : "refused");
            }
        }
    }

    private boolean treeGoneWithin(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            // A zombie is gone: an orphan's may wait long to be reaped, by pid 1 or a subreaper (maybe us).
            if (!process.isAlive() && seen.stream().noneMatch(ProcessGroup::runs)
                    && (!ownGroup || ProcessGroup.members(pid()).isEmpty())) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** {@code command} as {@code execvp} finds it: a path when it holds a slash, else the first on {@code path}. */
    static Optional<Path> findExecutable(String command, String path) {
        if (command.contains("/")) {
            Path file = Path.of(command);
            return Files.isRegularFile(file) && Files.isExecutable(file) ? Optional.of(file) : Optional.empty();
        }
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(":", -1)) {
            Path file = Path.of(directory.isEmpty() ? "." : directory).resolve(command);
            if (Files.isRegularFile(file) && Files.isExecutable(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "pid " + pid() + " (" + String.join(" ", argv) + ")";
    }
}
