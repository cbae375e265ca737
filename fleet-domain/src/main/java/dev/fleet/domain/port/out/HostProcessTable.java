package dev.fleet.domain.port.out;

import dev.fleet.domain.host.HostProcess;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every process the invoking user may see, as {@code fleet host} needs it (the contract, §14). Reads
 * only: no signal, not even 0; bounded like the fleet's own observation.
 */
public interface HostProcessTable {

    /**
     * One look at the table.
     *
     * @param fleetPids the processes whose command line the look's {@code fleetServer} accepted
     * @param read whether the table could be listed at all: false when it could not (or is another pid
     *     namespace's, or this platform has none), and then no process seen proves nothing, not even that
     *     no stray runs
     * @param partial whether the table may leave out live processes of other users (Linux: {@code /proc} mounted
     *     with {@code hidepid}, and the reader without CAP_SYS_PTRACE and not of the mount's {@code gid=} group,
     *     which sees no more under {@code ptraceable}; true when that cannot be told): a pid it does not list may
     *     be a live process, so no parent or pipe holder missing from it is known to be gone. The observer says
     *     what it could see; the classification decides what follows
     */
    record Look(List<HostProcess> processes, Set<Long> fleetPids, String bootId, long ownPid, List<String> warnings,
            boolean read, boolean partial) {
        public Look {
            processes = List.copyOf(processes);
            fleetPids = Set.copyOf(fleetPids);
            warnings = List.copyOf(warnings);
        }

        /** A look at a table that could be listed, every process in it, with no process of the fleet's. */
        public Look(List<HostProcess> processes, String bootId, long ownPid, List<String> warnings) {
            this(processes, Set.of(), bootId, ownPid, warnings, true, false);
        }

        /** No table to look at, and why (one warning line): nothing in it was seen, so it is partial too. */
        public static Look unread(String bootId, long ownPid, List<String> warnings) {
            return new Look(List.of(), Set.of(), bootId, ownPid, warnings, false, true);
        }
    }

    /**
     * One look at the table.
     *
     * @param fleetServer whether a command line is one of the fleet's own servers, tested on each command
     *     line as read, its secrets not yet masked (as the fleet's own observer tests it: a pattern may name
     *     a registry URL's user, which every shown line masks); called from several threads at once, so
     *     it must be thread-safe (the observer's compiled patterns are)
     */
    Look observe(Predicate<String> fleetServer);

    /** A look that leaves no process to the fleet. */
    default Look observe() {
        return observe(commandLine -> false);
    }
}
