package dev.fleet.observer;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.port.out.ProcessObserver;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Linux: observes the process table by reading {@code /proc} directly, which is about twice as fast
 * as {@code ProcessHandle.allProcesses()} and sees {@code argv[0]} as the process set it (the JDK
 * substitutes the executable's path). Start instants are computed exactly as the JDK computes
 * {@code ProcessHandle.Info.startInstant()}. Reads only; sends no signal.
 */
public final class ProcfsProcessObserver implements ProcessObserver {

    /** Pattern lists compiled at most; a process asks with one or two lists all its life. */
    private static final int COMPILED_PATTERN_LISTS = 16;

    private final Path procRoot;
    private final long ownPid;
    private final long clockTicksPerSecond;
    /** Each pattern list compiled once: a server answers every call with its roster's patterns. */
    private final Map<List<String>, ServerPatterns> compiled = new ConcurrentHashMap<>();
    /** Long command lines' shown forms, remembered from look to look. */
    private final LongLines longLines = new LongLines();

    /** Observes this host's {@code /proc}. */
    public ProcfsProcessObserver() {
        this(Path.of("/proc"), ProcessHandle.current().pid());
    }

    /** For tests: a {@code /proc}-shaped directory, and the pid its {@code self} link must name. */
    ProcfsProcessObserver(Path procRoot, long ownPid) {
        this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
        this.ownPid = ownPid;
        this.clockTicksPerSecond = ClockTicks.perSecond(procRoot);
    }

    /**
     * @throws InvalidServerPatternException for a pattern RE2J cannot compile, before anything is
     *     read (a roster loader checks its patterns with {@link ServerPatterns#compile} up front)
     */
    @Override
    public ProcessObservation observe(List<String> serverProcessPatterns, Set<Long> registeredPids,
            boolean ancestors) {
        ServerPatterns patterns = compiled(Objects.requireNonNull(serverProcessPatterns, "patterns"));
        Objects.requireNonNull(registeredPids, "registeredPids");
        HostFacts host = HostFacts.read(procRoot);
        try {
            requireOwnProcessTable(procRoot, ownPid);
            if (HiddenProcesses.hideOthersFromUs(procRoot)) {
                return ProcessObservation.unavailable(ListingReason.PERMISSION_DENIED, host.bootId(), host.hostname(),
                        host.pidNamespace());
            }
            ProcfsScan scan = new ProcfsScan(procRoot, patterns, longLines, registeredPids, clockTicksPerSecond);
            return ProcessObservation.of(host.bootId(), host.hostname(), host.pidNamespace(), scan.run(ancestors));
        } catch (AccessDeniedException e) {
            return ProcessObservation.unavailable(ListingReason.PERMISSION_DENIED, host.bootId(), host.hostname(),
                    host.pidNamespace());
        } catch (IOException e) {
            return ProcessObservation.unavailable(ListingReason.IO_ERROR, host.bootId(), host.hostname(),
                    host.pidNamespace());
        }
    }

    private ServerPatterns compiled(List<String> serverProcessPatterns) {
        ServerPatterns patterns = compiled.get(serverProcessPatterns);
        if (patterns == null) {
            patterns = ServerPatterns.compile(serverProcessPatterns); // throws for a bad pattern, caching nothing
            if (compiled.size() >= COMPILED_PATTERN_LISTS) {
                compiled.clear();
            }
            compiled.put(List.copyOf(serverProcessPatterns), patterns);
        }
        return patterns;
    }

    /**
     * A {@code /proc} mounted from another pid namespace (a container given the host's, say) would
     * list someone else's processes under pids that mean something else here: trusting it could
     * both hide a duplicate and invent one. Its {@code self} link names our pid only in our own.
     */
    static void requireOwnProcessTable(Path procRoot, long ownPid) throws IOException {
        String self = Files.readSymbolicLink(procRoot.resolve("self")).toString();
        if (!self.equals(Long.toString(ownPid))) {
            throw new IOException(procRoot + "/self names pid " + self + ", not " + ownPid
                    + ": this process table belongs to another pid namespace");
        }
    }
}
