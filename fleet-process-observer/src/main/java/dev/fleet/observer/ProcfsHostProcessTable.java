package dev.fleet.observer;

import dev.fleet.domain.port.out.HostProcessTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Linux: {@code fleet host}'s look at every process the invoking user may see, from {@code /proc} (the
 * contract, §14). Reads only, sends no signal; never fails: what cannot be read is a warning, a process
 * that cannot be read in part (another user's fds, when not root) reports what could be read, and a pid
 * gone mid-look is absent. Start instants are computed as {@link ProcfsProcessObserver}'s are, the JDK's
 * way. The boot id is empty when it cannot be read (with a warning), so ticks are then compared with none.
 * Where {@code /proc} may hide other users' processes from us ({@link HiddenProcesses}), the look says so, in a
 * warning and as {@link Look#partial}: what it lists is all it could see, and the classification decides what a
 * process missing from it may be.
 */
public final class ProcfsHostProcessTable implements HostProcessTable {

    private final Path procRoot;
    private final long ownPid;
    private final long clockTicksPerSecond;
    private final int maxProcesses;
    private final int fdsPerProcess;
    private final long fdsPerLook;
    private final long argvBytesPerLook;

    /** Looks at this host's {@code /proc}, bounded as {@link HostLook} says. */
    public ProcfsHostProcessTable() {
        this(Path.of("/proc"), ProcessHandle.current().pid(), HostLook.MAX_PROCESSES, HostLook.MAX_FDS_PER_PROCESS,
                HostLook.MAX_FDS_PER_LOOK);
    }

    /** For tests: a {@code /proc}-shaped directory, the pid its {@code self} names, and smaller bounds. */
    ProcfsHostProcessTable(Path procRoot, long ownPid, int maxProcesses, int fdsPerProcess, long fdsPerLook) {
        this(procRoot, ownPid, maxProcesses, fdsPerProcess, fdsPerLook, HostLook.MAX_ARGV_BYTES_PER_LOOK);
    }

    /** For tests: a smaller bound on the argv bytes kept, as well. */
    ProcfsHostProcessTable(Path procRoot, long ownPid, int maxProcesses, int fdsPerProcess, long fdsPerLook,
            long argvBytesPerLook) {
        this.argvBytesPerLook = argvBytesPerLook;
        this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
        this.ownPid = ownPid;
        this.clockTicksPerSecond = ClockTicks.perSecond(procRoot);
        this.maxProcesses = maxProcesses;
        this.fdsPerProcess = fdsPerProcess;
        this.fdsPerLook = fdsPerLook;
    }

    @Override
    public Look observe(Predicate<String> fleetServer) {
        String bootId = HostFacts.read(procRoot).bootId();
        List<String> warnings = new ArrayList<>();
        if (bootId == null) {
            warnings.add("the boot id (" + procRoot + "/sys/kernel/random/boot_id) could not be read");
            bootId = "";
        }
        try {
            ProcfsProcessObserver.requireOwnProcessTable(procRoot, ownPid);
            String[] names = ProcfsScan.listProcRoot(procRoot);
            // Said, and handed on: the classification must not take a process hidden from us for one gone.
            boolean partial = HiddenProcesses.hideOthersFromUs(procRoot);
            if (partial) {
                warnings.add(procRoot + " is mounted with hidepid: other users' processes are not shown");
            }
            HostLook look = new HostLook(procRoot, clockTicksPerSecond, fdsPerProcess, fdsPerLook, argvBytesPerLook,
                    fleetServer);
            var processes = look.run(names, maxProcesses);
            warnings.addAll(look.warnings());
            return new Look(processes, look.fleetPids(), bootId, ownPid, warnings, true, partial);
        } catch (IOException | RuntimeException e) {
            // A process table that cannot be listed (or is another namespace's) shows nothing, and says why.
            warnings.add("the process table " + procRoot + " could not be read: " + e.getMessage());
            return Look.unread(bootId, ownPid, warnings);
        }
    }
}
