package dev.fleet.observer;

import dev.fleet.domain.host.HostProcess;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One look at every process of {@code /proc} for {@code fleet host} (the contract, §14), used once and thrown
 * away, in two passes on {@link TwoWorkers}. The first reads of each process {@code stat} (parent, group,
 * session, start) and, unless it is a kernel thread, {@code cmdline}, {@code status} (owner, memory) and the
 * links of fd 0 and fd 1 ({@link Descriptors}): the channels (pipes and sockets) stdins read. The second, only
 * when some stdin reads a channel, reads the other fd links of each process whose fds could be read in the
 * first ({@link HeldChannels}), and for a pipe some stdin reads the {@code fdinfo} of each fd on it, to learn who
 * writes it ({@link PipeWriters}). Bounded on a hostile host: at most {@link #MAX_PROCESSES} processes, fd links
 * as {@link Budget} allows, and the argvs kept ({@link #MAX_ARGV_BYTES} each, {@link #MAX_ARGV_BYTES_PER_LOOK} in
 * all); every cut is said in a warning. A pid that vanishes mid-look is simply absent
 * (races are normal); a zombie or a dead pid is no process.
 */
final class HostLook {

    static final int MAX_PROCESSES = 65_536;
    static final int MAX_FDS_PER_PROCESS = 4_096;
    /** About a second of readlinks: 2,000 ordinary processes hold some 40,000 fds. */
    static final long MAX_FDS_PER_LOOK = 1_048_576;
    /**
     * The longest argv kept for the report: any user may start processes of a 6 MiB argv (the kernel's
     * bound), and 300 of them held 3 GB. No MCP server a client configures comes near it.
     */
    static final int MAX_ARGV_BYTES = 1 << 20;
    /**
     * The argv bytes kept for the report in all, the invoking user's processes and everyone else's each
     * (so that no other user can spend this user's): 2,000 ordinary processes hold some 400 KB.
     */
    static final long MAX_ARGV_BYTES_PER_LOOK = 64L << 20;

    private final String procPrefix;
    private final long clockTicksPerSecond;
    private final Budget budget;
    private final long bootMillis;
    private final List<String> warnings = new ArrayList<>();
    private final AtomicLong unparsed = new AtomicLong();
    private final long argvBytesPerLook;
    /** The invoking user's real uid, -1 when unknown. */
    private final int ownUid;
    private final AtomicLong ownArgvBytes = new AtomicLong();
    private final AtomicLong othersArgvBytes = new AtomicLong();
    private final AtomicLong argvsLeftOut = new AtomicLong();

    private final Predicate<String> fleetServer;
    private final Set<Long> fleetPids = ConcurrentHashMap.newKeySet();

    /**
     * A process as the first pass read it.
     *
     * @param directory where its argv, memory and files were read: its {@code /proc/PID}, or a live thread's
     */
    private record Seen(long pid, String directory, long parent, long group, long session, int uid, long ticks,
            Instant startedAt, List<String> argv, Descriptors stdio, long memoryBytes, boolean kernel) {
    }

    /**
     * @param fleetServer tested on each command line as read, its secrets not yet masked, as the fleet's own
     *     observer tests it: the processes it accepts are {@link #fleetPids}
     */
    HostLook(Path procRoot, long clockTicksPerSecond, int fdsPerProcess, long fdsPerLook, long argvBytesPerLook,
            Predicate<String> fleetServer) {
        this.fleetServer = fleetServer;
        this.argvBytesPerLook = argvBytesPerLook;
        this.procPrefix = procRoot + "/";
        this.clockTicksPerSecond = clockTicksPerSecond;
        this.budget = new Budget(fdsPerProcess, fdsPerLook);
        ProcFileReader reader = new ProcFileReader();
        this.bootMillis = ProcfsScan.bootMillis(procPrefix, reader);
        int length = reader.readToEnd(procPrefix + "self/status");
        this.ownUid = length < 0 ? -1 : ProcStatus.realUid(reader.buffer(), length);
    }

    /** Every process of {@code names} (the listing of {@code /proc}), ordered by pid. */
    List<HostProcess> run(String[] names, int maxProcesses) {
        long[] pids = pids(names, maxProcesses);
        Seen[] seen = new Seen[pids.length];
        TwoWorkers.forEach(pids.length, (reader, i) -> seen[i] = read(pids[i], reader));
        Channels channels = new Channels();
        for (Seen process : seen) {
            if (process != null) {
                channels.add(process.stdio());
            }
        }
        HostProcess[] processes = new HostProcess[seen.length];
        boolean[] cut = new boolean[seen.length];
        TwoWorkers.forEach(seen.length, (reader, i) -> {
            Seen process = seen[i];
            if (process != null) {
                HeldChannels held = held(process, channels);
                cut[i] = held.cut();
                // A kernel thread holds no file; any other process's files are all known only when read to the end.
                boolean fdsRead = process.kernel() || process.stdio().readable() && !held.cut() && !held.refused();
                processes[i] = withWritten(process, new PipeWriters(reader).of(process.directory(), held,
                        channels), fdsRead);
            }
        });
        long processesCut = 0;
        for (boolean one : cut) {
            processesCut += one ? 1 : 0;
        }
        if (processesCut > 0) {
            warnings.add(processesCut + " processes had more open files than were read (at most "
                    + MAX_FDS_PER_PROCESS + " each, " + MAX_FDS_PER_LOOK + " in all): pipes they hold may be missing");
        }
        if (argvsLeftOut.get() > 0) {
            warnings.add(argvsLeftOut.get() + " processes' command lines were too long to keep (over "
                    + MAX_ARGV_BYTES + " bytes each, or " + argvBytesPerLook + " in all, yours or others'): they match no "
                    + "configured server");
        }
        if (unparsed.get() > 0) {
            warnings.add(unparsed.get() + " processes were left out: their /proc/PID/stat showed no start");
        }
        if (bootMillis < 0) {
            warnings.add("the boot time (btime of /proc/stat) could not be read: start instants are unknown");
        }
        List<HostProcess> found = new ArrayList<>(processes.length);
        for (HostProcess process : processes) {
            if (process != null) {
                found.add(process); // in pid order: pids() sorted them
            }
        }
        return found;
    }

    /** Whether {@code length} more argv bytes of a process of {@code uid} fit the look's bound: then they count against it. */
    private boolean keptWithin(int length, int uid) {
        AtomicLong spent = uid == ownUid ? ownArgvBytes : othersArgvBytes;
        while (true) {
            long kept = spent.get();
            if (kept + length > argvBytesPerLook) {
                return false;
            }
            if (spent.compareAndSet(kept, kept + length)) {
                return true;
            }
        }
    }

    List<String> warnings() {
        return warnings;
    }

    /** The processes of the last {@link #run} whose command line {@code fleetServer} accepted. */
    Set<Long> fleetPids() {
        return Set.copyOf(fleetPids);
    }

    /** The pids of {@code names}, ascending, at most {@code maxProcesses} of them (said in a warning). */
    private long[] pids(String[] names, int maxProcesses) {
        long[] pids = new long[Math.min(names.length, maxProcesses)];
        int listed = 0;
        for (String name : names) {
            long pid = ProcfsScan.pidOf(name);
            if (pid <= 0) {
                continue; // kernel state, not a process; /proc lists processes only, never their threads
            }
            if (listed == maxProcesses) {
                warnings.add("the process table holds more than " + maxProcesses + " processes; only the first "
                        + maxProcesses + " were read");
                break;
            }
            pids[listed++] = pid;
        }
        long[] kept = Arrays.copyOf(pids, listed);
        Arrays.sort(kept);
        return kept;
    }

    /** What the second pass reads of a process: nothing more when no stdin reads a channel. */
    private HeldChannels held(Seen process, Channels channels) {
        if (channels.isEmpty()) {
            return process.stdio().cut() ? HeldChannels.ofStdio(process.stdio(), channels) : HeldChannels.NONE;
        }
        if (!process.stdio().readable()) {
            return HeldChannels.ofStdio(process.stdio(), channels);
        }
        return HeldChannels.read(process.directory() + "/fd/", process.stdio(), channels, budget);
    }

    private static HostProcess withWritten(Seen process, PipeWriters.Written written, boolean fdsRead) {
        Descriptors stdio = process.stdio();
        return new HostProcess(process.pid(), process.parent(), process.group(), process.session(), process.uid(),
                process.ticks(), process.startedAt(), process.argv(), stdio.stdinTerminal(), stdio.stdinChannel(),
                stdio.stdinSocket() >= 0, stdio.stdoutChannel(), written.channels(), process.memoryBytes(), fdsRead,
                written.output());
    }

    /** The process, or null when it has gone (or died and waits to be reaped) since the listing. */
    private Seen read(long pid, ProcFileReader reader) {
        // A process whose main thread alone has exited lives on: its argv, memory and open files are a
        // live thread's to read (ExitedLeaders); its parent, group, session and start, the main thread's.
        String directory = procPrefix + pid;
        int length = reader.readProcessFile(directory + "/stat");
        if (length < 0) {
            return null;
        }
        boolean filesUnseen = false;
        if (ProcStat.isExiting(reader.buffer(), length)) {
            ExitedLeaders.Remains remains = ExitedLeaders.remains(directory, reader);
            if (!remains.runs()) {
                return null; // a zombie, or a process on its way out: dead, or nearly, and waiting to be reaped
            }
            String thread = remains.liveThread();
            // Alive, its threads unreadable: the main thread's fd/ lists nothing, which must not read as "holds
            // no pipe" (a server it feeds would look orphaned), so its files count as unread.
            filesUnseen = thread == null;
            directory = thread == null ? directory : thread;
            length = reader.readProcessFile(procPrefix + pid + "/stat");
            if (length < 0) {
                return null;
            }
        }
        byte[] stat = reader.buffer();
        long parent = Math.max(0, ProcStat.parentPid(stat, length));
        long group = ProcStat.processGroup(stat, length);
        long session = ProcStat.session(stat, length);
        long ticks = ProcStat.startTicks(stat, length);
        if (ticks < 0) {
            unparsed.incrementAndGet();
            return null; // no start to tell it from a later process on its pid: nothing to report, nothing to stop
        }
        Instant startedAt = ProcfsScan.startInstant(bootMillis, ticks, clockTicksPerSecond);
        if (ProcStat.isKernelThread(stat, length)) {
            // root's, with nothing more to read: a desktop runs a hundred or more of them
            return new Seen(pid, directory, parent, group, session, 0, ticks, startedAt, List.of(),
                    Descriptors.UNREADABLE, 0, true);
        }
        length = reader.readToEnd(directory + "/status");
        if (length < 0) {
            return null; // gone between the reads
        }
        int uid = ProcStatus.realUid(reader.buffer(), length);
        long memory = ProcStatus.residentBytes(reader.buffer(), length);
        length = reader.readProcessFile(directory + "/cmdline");
        // An argv is shown, so each argument is masked while still apart. Empty: a process that cleared it.
        String arguments = length <= 0 ? null : CommandLines.arguments(reader.buffer(), length);
        boolean kept = arguments != null && length <= MAX_ARGV_BYTES && keptWithin(length, uid);
        if (arguments != null && !kept) {
            argvsLeftOut.incrementAndGet(); // shown as a process that cleared its argv: it matches nothing
        }
        List<String> argv = kept ? CommandLines.maskedApart(arguments) : List.of();
        if (arguments != null && fleetServer.test(CommandLines.joined(arguments))) {
            fleetPids.add(pid); // matched as the fleet's observer matches: the line as read, secrets and all
        }
        Descriptors stdio = filesUnseen ? Descriptors.UNREADABLE : Descriptors.read(directory + "/fd/", budget);
        return new Seen(pid, directory, parent, group, session, uid, ticks, startedAt, argv, stdio, memory, false);
    }
}
