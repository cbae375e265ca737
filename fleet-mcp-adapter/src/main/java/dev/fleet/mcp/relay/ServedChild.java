package dev.fleet.mcp.relay;

import dev.fleet.domain.SecretMask;
import dev.fleet.mcp.UnblockedStderr;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's own server: started as this process's child without a shell, in a process group and
 * session of its own, bound to this process's life, and ended with everything it started (the contract,
 * §12 and §12.1). Its stderr is this process's; its stdin and stdout are the relay's.
 *
 * <p>What the JDK cannot do is done by two util-linux commands that each change the process and then
 * execute the next in the same process, so that the child's pid is the command's:
 * {@code setpriv --pdeathsig KILL} (Linux sends the child SIGKILL when this member dies, even of
 * SIGKILL) and {@code setsid} (a session and group of its own; it forks only when the caller leads a
 * group, which a process the JDK has just started never does). Either missing: one warning, and the
 * child starts without what it gives.
 *
 * <p>The whole tree: before the child starts, this process becomes a child subreaper
 * ({@link NativeProcesses}), so every process the child's tree orphans (a wrapper's children, a
 * double-forked daemon in a session of its own) is adopted here rather than by init, and the tree is
 * always this process's descendants ({@link ProcessTree}): no look can miss one. The adopted are reaped
 * when they exit ({@link OrphanReaper}). Where that cannot be (not Linux, JNA refused): one warning, and
 * the child's descendants are looked at every second instead, so that reparented ones are still ended.
 * Signals go through {@link ProcessHandle}, which checks a process's start before it signals, so a
 * recycled pid is never signalled.
 */
public final class ServedChild {

    /** Descendants remembered without a subreaper, at most: a server that forks without end is still ended by its group. */
    private static final int MAX_SEEN = 4096;
    private static final Logger LOG = LoggerFactory.getLogger(ServedChild.class);

    private final Process process;
    private final List<String> argv;
    private final boolean ownGroup;
    private final boolean adopts;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    /** Set once a relay serves this child: from then on the relay's own teardown ends the tree. */
    private volatile boolean served;

    private ServedChild(Process process, List<String> argv, boolean ownGroup, boolean adopts) {
        this.process = process;
        this.argv = List.copyOf(argv);
        this.ownGroup = ownGroup;
        this.adopts = adopts;
    }

    /** A command that cannot be started: not found on PATH, not executable, or refused by the OS. */
    public static final class CannotStart extends Exception {
        CannotStart(String message) {
            super(message);
        }
    }

    /**
     * Begins, on a thread of its own, what {@link #start} needs first (JNA's loading, some 100 ms), so
     * that it overlaps the rest of the member's start.
     */
    public static void prepare() {
        NativeProcesses.preload();
    }

    /**
     * Starts {@code argv} (its first word found on {@code PATH} as {@code execvp} would) with this
     * process's environment changed by {@code environment} (a null value removes the variable).
     *
     * <p>Call it on the thread that then serves until this process exits (the main thread): Linux sends
     * the parent-death signal when the <em>thread</em> that started the child ends, not the process.
     */
    public static ServedChild start(List<String> argv, Map<String, String> environment) throws CannotStart {
        if (argv.isEmpty() || argv.get(0).isEmpty()) {
            throw new CannotStart("no command to start after --");
        }
        String command = argv.get(0);
        String path = System.getenv("PATH");
        if (findExecutable(command, path).isEmpty()) {
            throw new CannotStart("cannot start '" + SecretMask.argv(List.of(command)) + "': " + (command.contains("/")
                    ? "no such executable file" : "not found on PATH"));
        }
        NativeProcesses.Loaded natives = NativeProcesses.load();
        boolean adopts = becomeSubreaper(natives);
        LaunchChain launchers = LaunchChain.onPath(path);
        ProcessBuilder builder = new ProcessBuilder(launchers.around(argv)).redirectError(ProcessBuilder.Redirect.INHERIT);
        environment.forEach((name, value) -> {
            if (value == null) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        ServedChild child;
        try {
            child = new ServedChild(builder.start(), argv, launchers.ownSession(), adopts);
        } catch (IOException e) {
            throw new CannotStart("cannot start '" + SecretMask.argv(List.of(command)) + "': " + e.getMessage());
        }
        if (!launchers.bindsToParent()) {
            LOG.warn("no setpriv (util-linux) on PATH: the wrapped server outlives this process if it is killed "
                    + "with SIGKILL");
        }
        if (!launchers.ownSession()) {
            LOG.warn("no setsid on PATH: the wrapped server shares this process's group");
        }
        // Until a relay serves it, the member is still starting (building its MCP server): a JVM exit then
        // (a client's SIGTERM, a start that fails) ends the tree as a stop signal does, not leaving it.
        Runtime.getRuntime().addShutdownHook(new Thread(child::endUnlessServed, "fleet-child-until-served"));
        // After the hook: a signal while the launchers run ends the child, rather than leaving it.
        Optional<Integer> refused = launchers.notExecuted(child.process);
        if (refused.isPresent()) {
            child.served(); // it has exited: the hook has nothing to end, and nothing to log after this line
            throw new CannotStart("cannot start '" + SecretMask.argv(List.of(command)) + "': the system could not "
                    + "execute it (exit " + refused.get() + "; the line above says why)");
        }
        if (adopts) {
            OrphanReaper.start(natives.calls(), child.process);
        } else {
            child.sampleDescendants();
        }
        return child;
    }

    private static boolean becomeSubreaper(NativeProcesses.Loaded natives) {
        if (natives.calls() == null) {
            LOG.warn("cannot adopt the wrapped server's orphans ({}): its processes are looked for every second",
                    natives.failure());
            return false;
        }
        int errno = natives.calls().becomeSubreaper();
        if (errno != 0) {
            LOG.warn("cannot adopt the wrapped server's orphans (prctl PR_SET_CHILD_SUBREAPER failed, errno {}): "
                    + "its processes are looked for every second", errno);
        }
        return errno == 0;
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

    /** Waits for the child to exit; its status (128 + N for signal N). */
    int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /**
     * Ends the child and everything it started within the contract's bounds ({@link TreeTeardown}):
     * returns once they are gone (or SIGKILL was sent and waited for).
     *
     * @param signalled counted down when this member is told to stop by a signal: SIGTERM then goes to
     *     the tree at once, whether the wait for the child to exit by itself has begun or not
     */
    void end(Runnable closeStdin, CountDownLatch signalled) throws InterruptedException {
        new TreeTeardown(this).run(closeStdin, signalled);
    }

    /** A relay serves this child now, and ends its tree itself (after its own shutdown hook is in). */
    void served() {
        served = true;
    }

    private void endUnlessServed() {
        if (served) {
            return;
        }
        try {
            end(() -> {
                try {
                    stdin().close();
                } catch (IOException e) {
                    LOG.debug("closing the wrapped server's stdin: {}", e.toString());
                }
            }, new CountDownLatch(0)); // as a stop signal: SIGTERM at once
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        UnblockedStderr.drain(); // what the teardown logged, once stderr is queued (the relay began serving)
    }

    /** Whether the child itself has exited (and the JDK has its status). */
    boolean exited() {
        return !process.isAlive();
    }

    /**
     * Every process of the child's tree that runs now, the child included: this process's descendants
     * (all of the tree, as a subreaper), the child's group, and, without a subreaper, every descendant
     * seen before.
     */
    List<ProcessHandle> runningTree() {
        List<ProcessHandle> tree = new ArrayList<>(ProcessTree.running(ProcessHandle.current().pid(),
                ownGroup ? pid() : 0));
        if (!adopts) {
            seen.stream().filter(ProcessTree::runs).filter(handle -> !tree.contains(handle)).forEach(tree::add);
        }
        return tree;
    }

    /**
     * Sends SIGTERM (or SIGKILL) to every process of the tree that runs now: the one place a process is
     * ended outside the demo.
     */
    void signalTree(boolean kill) {
        for (ProcessHandle target : runningTree()) {
            boolean sent = kill ? target.destroyForcibly() : target.destroy();
            LOG.debug("{} to pid {}: {}", kill ? "SIGKILL" : "SIGTERM", target.pid(), sent ? "sent" : "refused");
        }
    }

    /** Without a subreaper: remembers the child's descendants every second, so they are ended even once reparented. */
    private void sampleDescendants() {
        Thread sampler = new Thread(() -> {
            try {
                while (process.isAlive()) {
                    try (Stream<ProcessHandle> descendants = process.descendants()) {
                        descendants.limit(MAX_SEEN).forEach(handle -> {
                            if (seen.size() < MAX_SEEN) {
                                seen.add(handle);
                            }
                        });
                    }
                    seen.removeIf(handle -> !ProcessTree.runs(handle));
                    TimeUnit.SECONDS.sleep(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fleet-relay-tree");
        sampler.setDaemon(true);
        sampler.start();
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

    /** The pid and the command, its secrets masked: this is what fleet's own stderr lines show. */
    @Override
    public String toString() {
        return "pid " + pid() + " (" + SecretMask.argv(argv) + ")";
    }
}
