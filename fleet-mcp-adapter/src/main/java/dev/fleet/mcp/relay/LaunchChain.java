package dev.fleet.mcp.relay;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The util-linux commands the wrapped server is started through ({@code setpriv --pdeathsig KILL},
 * {@code setsid}), each changing the process and then executing the next in it, and the moment the
 * process becomes the server's own command.
 *
 * <p>The JDK reports a command the system refuses to execute only when it executes it itself: here it
 * executes {@code setpriv}, and the refusal of the server's command (a script whose interpreter is
 * missing, a file the kernel cannot run) comes later, as the launcher's own line on stderr and its
 * exit 126 or 127. {@link #reachedCommand} waits for it, so such a command is a start that failed
 * (exit 2, nothing registered, the contract's §12) rather than a member whose child exits 127.
 */
final class LaunchChain {

    /** How long the launchers may take to reach the command: milliseconds on any host; past it, it is taken as started. */
    private static final Duration EXEC_WAIT = Duration.ofSeconds(2);
    /** How util-linux (and a shell) report a command they could not execute: not executable, not found. */
    private static final Set<Integer> NOT_EXECUTED = Set.of(126, 127);

    private final Optional<Path> setpriv;
    private final Optional<Path> setsid;

    private LaunchChain(Optional<Path> setpriv, Optional<Path> setsid) {
        this.setpriv = setpriv;
        this.setsid = setsid;
    }

    /** The launchers found on {@code path}; either may be missing. */
    static LaunchChain onPath(String path) {
        return new LaunchChain(ServedChild.findExecutable("setpriv", path), ServedChild.findExecutable("setsid", path));
    }

    boolean bindsToParent() {
        return setpriv.isPresent();
    }

    boolean ownSession() {
        return setsid.isPresent();
    }

    /** {@code argv} as started: behind the launchers found. */
    List<String> around(List<String> argv) {
        List<String> started = new ArrayList<>();
        setpriv.ifPresent(file -> started.addAll(List.of(file.toString(), "--pdeathsig", "KILL", "--")));
        setsid.ifPresent(file -> started.addAll(List.of(file.toString(), "--")));
        started.addAll(argv);
        return started;
    }

    /**
     * Empty once {@code process} runs the command (or is taken to: no launcher, or the wait is over);
     * the launcher's exit status when it ended without executing it.
     */
    Optional<Integer> notExecuted(Process process) {
        Set<String> launchers = Stream.of(setpriv, setsid).flatMap(Optional::stream).map(LaunchChain::real)
                .collect(Collectors.toSet());
        if (launchers.isEmpty()) {
            return Optional.empty(); // the JDK executed the command itself, and would have thrown
        }
        long deadline = System.nanoTime() + EXEC_WAIT.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                Optional<String> running = process.info().command();
                if (running.isPresent() && !launchers.contains(running.get())) {
                    return Optional.empty();
                }
                if (process.waitFor(1, TimeUnit.MILLISECONDS)) {
                    return NOT_EXECUTED.contains(process.exitValue()) ? Optional.of(process.exitValue())
                            : Optional.empty();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /** A launcher's path as {@code /proc/PID/exe} names it: symlinks (a merged {@code /bin}) resolved. */
    private static String real(Path file) {
        try {
            return file.toRealPath().toString();
        } catch (IOException e) {
            return file.toAbsolutePath().toString();
        }
    }
}
