package dev.fleet.domain.host;

import java.time.Instant;
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
 * @param stdinPipe the pipe its stdin reads (the pipe's inode), null when stdin is no pipe or unreadable
 * @param stdoutPipe whether its stdout is a pipe
 * @param pipesWritten the pipes (inodes) among those some observed process's stdin reads that this
 *     process holds open for writing
 * @param memoryBytes its resident set size ({@code VmRSS} of {@code /proc/PID/status}), 0 when unknown (a kernel
 *     thread's). Resident, not proportional: shared pages (a runtime's libraries) count in every process that
 *     maps them, so a tree's sum overstates it; PSS ({@code smaps_rollup}) would cost a walk of each process's
 *     page tables, on every process a look reads
 */
public record HostProcess(long pid, long parentPid, long processGroup, long session, int uid, long startTicks,
        Instant startedAt, List<String> argv, boolean stdinTerminal, Long stdinPipe, boolean stdoutPipe,
        Set<Long> pipesWritten, long memoryBytes) {

    public HostProcess {
        argv = List.copyOf(argv);
        pipesWritten = Set.copyOf(Objects.requireNonNull(pipesWritten, "pipesWritten"));
    }

    /** Its arguments joined by single spaces, as shown. */
    public String commandLine() {
        return String.join(" ", argv);
    }
}
