package dev.fleet.domain.host;

import java.time.Instant;
import dev.fleet.domain.SecretMask;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One process of the host as {@code fleet host} observes it (the contract, §14): the facts of §4 and
 * what tells a server's client, its generation and its orphans apart.
 *
 * @param pid its pid
 * @param parentPid its parent's pid, 0 when none (pid 1's)
 * @param processGroup its process group
 * @param session its session
 * @param uid its owner
 * @param startTicks {@code /proc/PID/stat} field 22: its start, in clock ticks since boot
 * @param startedAt the same start as an instant, null when the OS would not say
 * @param argv its arguments as the kernel shows them, each masked ({@code SecretMask}) since they are
 *     shown; empty for a kernel thread or an unreadable process
 * @param stdinTerminal whether its stdin is a terminal (started by hand)
 * @param stdinPipe the channel its stdin reads, a pipe or a unix socket (its inode: pipes and sockets are
 *     numbered by one kernel counter), null when stdin is neither or unreadable. A Node client (Claude Code,
 *     VS Code, Cursor, Gemini CLI, Claude Desktop, the TypeScript SDK) gives its servers one end of a
 *     socketpair, libuv's way; others a pipe
 * @param stdinSocket whether that channel is a socket: then who holds its other end is only guessed (the inode
 *     next to it), never known as a pipe's writing end is
 * @param stdoutPipe whether its stdout is a pipe or a socket
 * @param pipesWritten the channels (inodes) among those some observed process's stdin reads whose other end
 *     this process holds: a pipe it holds open for writing, or a socket it holds whose inode is next to the
 *     stdin socket's (the socketpair's peer as far as {@code /proc} tells; a wrong guess only keeps a server
 *     from being called orphaned)
 * @param memoryBytes its resident set size ({@code VmRSS} of {@code /proc/PID/status}), 0 when unknown (a kernel
 *     thread's). Resident, not proportional: shared pages (a runtime's libraries) count in every process that
 *     maps them, so a tree's sum overstates it; PSS ({@code smaps_rollup}) would cost a walk of each process's
 *     page tables, on every process a look reads
 * @param fdsRead whether every open file of it was read (a kernel thread's: it holds none), so that the
 *     channels it holds are all in {@code pipesWritten}; false when its fds could not be read (another user's)
 *     or the look's bound cut them. One such process means an unfed stdin proves no client gone
 * @param pipesOutput the pipes among {@code pipesWritten} it writes through its stdout or stderr alone (fd 1, 2):
 *     its own output, which the process reading it consumes ({@code codex exec ... | tee log}). A client feeds a
 *     server's stdin through a pipe end it made for it, never through its own output, so a reader of these is no
 *     leftover of it; it still feeds that reader, which is then never orphaned
 */
public record HostProcess(long pid, long parentPid, long processGroup, long session, int uid, long startTicks,
        Instant startedAt, List<String> argv, boolean stdinTerminal, Long stdinPipe, boolean stdinSocket,
        boolean stdoutPipe, Set<Long> pipesWritten, long memoryBytes, boolean fdsRead, Set<Long> pipesOutput) {

    /** Keys of a client's configuration whose values are a server's secrets (Codex: {@code http_headers}). */
    private static final List<String> ENV_KEYS = List.of("env", "headers", "http_headers");

    public HostProcess {
        argv = List.copyOf(argv);
        pipesWritten = Set.copyOf(Objects.requireNonNull(pipesWritten, "pipesWritten"));
        pipesOutput = Set.copyOf(Objects.requireNonNull(pipesOutput, "pipesOutput"));
    }

    /** A process that writes no pipe some stdin reads through its stdout or stderr alone. */
    public HostProcess(long pid, long parentPid, long processGroup, long session, int uid, long startTicks,
            Instant startedAt, List<String> argv, boolean stdinTerminal, Long stdinPipe, boolean stdinSocket,
            boolean stdoutPipe, Set<Long> pipesWritten, long memoryBytes, boolean fdsRead) {
        this(pid, parentPid, processGroup, session, uid, startTicks, startedAt, argv, stdinTerminal, stdinPipe,
                stdinSocket, stdoutPipe, pipesWritten, memoryBytes, fdsRead, Set.of());
    }

    /** A process whose stdin channel, if any, is a pipe, whose writing end's holders are known. */
    public HostProcess(long pid, long parentPid, long processGroup, long session, int uid, long startTicks,
            Instant startedAt, List<String> argv, boolean stdinTerminal, Long stdinPipe, boolean stdoutPipe,
            Set<Long> pipesWritten, long memoryBytes, boolean fdsRead) {
        this(pid, parentPid, processGroup, session, uid, startTicks, startedAt, argv, stdinTerminal, stdinPipe, false,
                stdoutPipe, pipesWritten, memoryBytes, fdsRead);
    }

    /** Its arguments joined by single spaces, as matched. */
    public String commandLine() {
        return String.join(" ", argv);
    }

    /**
     * Its command line as a report shows it, configuration written inline masked: an argument that opens
     * with a JSON object or array ({@code claude --mcp-config '{"mcpServers":...}'}) whole, and from an
     * {@code =} on, a value that opens so ({@code --mcp-config={...}}, {@code --config=a.b.env={...}}) or
     * whose dotted key names {@code env} or {@code headers} (Codex's {@code -c 'mcp_servers.x.env.PAT="..."'}).
     * Such text may carry the {@code env} and {@code headers} of the servers it configures, whose values no
     * output may show (§14), and no word of it names them as a secret. One pass over each argument.
     */
    public String shownCommandLine() {
        StringBuilder shown = new StringBuilder();
        for (String argument : argv) {
            if (!shown.isEmpty()) {
                shown.append(' ');
            }
            shown.append(shownArgument(argument));
        }
        return shown.toString();
    }

    private static String shownArgument(String argument) {
        if (opensConfiguration(argument, 0)) {
            return SecretMask.MASK;
        }
        boolean keyNamesEnv = false;
        int segment = 0;
        for (int i = 0; i < argument.length(); i++) {
            char c = argument.charAt(i);
            if (c == '.' || c == '=') {
                keyNamesEnv |= namesEnv(argument, segment, i);
                segment = i + 1;
                if (c == '=' && (keyNamesEnv || opensConfiguration(argument, i + 1))) {
                    return argument.substring(0, i + 1) + SecretMask.MASK;
                }
            }
        }
        return argument;
    }

    private static boolean namesEnv(String text, int from, int to) {
        for (String name : ENV_KEYS) {
            if (to - from == name.length() && text.regionMatches(true, from, name, 0, name.length())) {
                return true;
            }
        }
        return false;
    }

    private static boolean opensConfiguration(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && (text.charAt(i) == '{' || text.charAt(i) == '[');
    }
}
