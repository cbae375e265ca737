package dev.fleet.observer;

import dev.fleet.domain.host.HostProcess;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One look at every process of {@code /proc} for {@code fleet host} (the contract, §14), used once and thrown
 * away. Per process it reads {@code stat} (parent, group, session, start) and, unless it is a kernel thread,
 * {@code cmdline}, {@code status} (owner, memory) and the links of {@code fd/}; then, for the few pipes some
 * stdin reads, the {@code fdinfo} of each fd on them, to learn who writes them. Bounded on a hostile host: at
 * most {@link #MAX_PROCESSES} processes, and fds as {@link Descriptors.Budget} allows; every cut is said in a
 * warning. A pid that vanishes mid-look is simply absent (races are normal); a zombie or a dead pid is no
 * process.
 */
final class HostLook {

    static final int MAX_PROCESSES = 65_536;
    static final int MAX_FDS_PER_PROCESS = 4_096;
    /** About a second of readlinks: 2,000 ordinary processes hold some 40,000 fds. */
    static final long MAX_FDS_PER_LOOK = 1_048_576;

    private final String procPrefix;
    private final long clockTicksPerSecond;
    private final ProcFileReader reader = new ProcFileReader();
    private final Descriptors.Budget budget;
    private final long bootMillis;
    private final List<String> warnings = new ArrayList<>();

    /** A process read, all but the pipes it writes, which need every process's stdin first. */
    private record Seen(long pid, long parent, long group, long session, int uid, long ticks, Instant startedAt,
            List<String> argv, Descriptors descriptors, long memoryBytes) {
    }

    HostLook(Path procRoot, long clockTicksPerSecond, int fdsPerProcess, long fdsPerLook) {
        this.procPrefix = procRoot + "/";
        this.clockTicksPerSecond = clockTicksPerSecond;
        this.budget = new Descriptors.Budget(fdsPerProcess, fdsPerLook);
        this.bootMillis = ProcfsScan.bootMillis(procPrefix, reader);
    }

    /** Every process of {@code names} (the listing of {@code /proc}), ordered by pid. */
    List<HostProcess> run(String[] names, int maxProcesses) {
        List<Seen> seen = new ArrayList<>();
        int listed = 0;
        for (String name : names) {
            long pid = ProcfsScan.pidOf(name);
            if (pid <= 0) {
                continue; // kernel state, not a process; /proc lists processes only, never their threads
            }
            if (++listed > maxProcesses) {
                warnings.add("the process table holds more than " + maxProcesses + " processes; only the first "
                        + maxProcesses + " were read");
                break;
            }
            Seen process = read(pid);
            if (process != null) {
                seen.add(process);
            }
        }
        if (budget.processesCut() > 0) {
            warnings.add(budget.processesCut() + " processes had more open files than were read (at most "
                    + MAX_FDS_PER_PROCESS + " each, " + MAX_FDS_PER_LOOK + " in all): pipes they hold may be missing");
        }
        if (bootMillis < 0) {
            warnings.add("the boot time (btime of /proc/stat) could not be read: start instants are unknown");
        }
        return withPipesWritten(seen);
    }

    List<String> warnings() {
        return warnings;
    }

    /** The process, or null when it has gone (or died and waits to be reaped) since the listing. */
    private Seen read(long pid) {
        String directory = procPrefix + pid;
        int length = reader.readProcessFile(directory + "/stat");
        if (length < 0 || ProcStat.isDead(reader.buffer(), length)) {
            return null;
        }
        byte[] stat = reader.buffer();
        long parent = Math.max(0, ProcStat.parentPid(stat, length));
        long group = ProcStat.processGroup(stat, length);
        long session = ProcStat.session(stat, length);
        long ticks = ProcStat.startTicks(stat, length);
        Instant startedAt = ProcfsScan.startInstant(bootMillis, ticks, clockTicksPerSecond);
        if (ProcStat.isKernelThread(stat, length)) {
            // root's, with nothing more to read: a desktop runs a hundred or more of them
            return new Seen(pid, parent, group, session, 0, ticks, startedAt, List.of(), Descriptors.UNREADABLE, 0);
        }
        length = reader.readProcessFile(directory + "/cmdline");
        // An argv is shown, so each argument is masked while still apart. Empty: a process that cleared it.
        List<String> argv = length <= 0 ? List.of() : CommandLines.maskedApart(CommandLines.arguments(reader.buffer(),
                length));
        length = reader.readToEnd(directory + "/status");
        if (length < 0) {
            return null; // gone between the reads
        }
        int uid = ProcStatus.realUid(reader.buffer(), length);
        long memory = ProcStatus.residentBytes(reader.buffer(), length);
        Descriptors descriptors = Descriptors.read(Path.of(directory, "fd"), budget);
        return new Seen(pid, parent, group, session, uid, ticks, startedAt, argv, descriptors, memory);
    }

    /** The processes with, each, the pipes some stdin reads that it holds for writing. */
    private List<HostProcess> withPipesWritten(List<Seen> seen) {
        Set<Long> stdinPipes = new HashSet<>();
        for (Seen process : seen) {
            if (process.descriptors().stdinPipe() != null) {
                stdinPipes.add(process.descriptors().stdinPipe());
            }
        }
        PipeWriters writers = new PipeWriters(procPrefix, reader);
        List<HostProcess> processes = new ArrayList<>(seen.size());
        for (Seen process : seen) {
            Descriptors fds = process.descriptors();
            processes.add(new HostProcess(process.pid(), process.parent(), process.group(), process.session(),
                    process.uid(), process.ticks(), process.startedAt(), process.argv(), fds.stdinTerminal(),
                    fds.stdinPipe(), fds.stdoutPipe(), writers.of(process.pid(), fds, stdinPipes),
                    process.memoryBytes()));
        }
        processes.sort(Comparator.comparingLong(HostProcess::pid));
        return processes;
    }
}
