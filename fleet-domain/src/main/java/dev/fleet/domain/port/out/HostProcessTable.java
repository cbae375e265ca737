package dev.fleet.domain.port.out;

import dev.fleet.domain.host.HostProcess;
import java.util.List;

/**
 * Every process the invoking user may see, as {@code fleet host} needs it (the contract, §14). Reads
 * only: no signal, not even 0; bounded like the fleet's own observation.
 */
public interface HostProcessTable {

    /**
     * One look at the table.
     *
     * @param read whether the table could be listed at all: false when it could not (or is another pid
     *     namespace's, or this platform has none), and then no process seen proves nothing, not even that
     *     no stray runs
     */
    record Look(List<HostProcess> processes, String bootId, long ownPid, List<String> warnings, boolean read) {
        public Look {
            processes = List.copyOf(processes);
            warnings = List.copyOf(warnings);
        }

        /** A look at a table that could be listed. */
        public Look(List<HostProcess> processes, String bootId, long ownPid, List<String> warnings) {
            this(processes, bootId, ownPid, warnings, true);
        }

        /** No table to look at, and why (one warning line). */
        public static Look unread(String bootId, long ownPid, List<String> warnings) {
            return new Look(List.of(), bootId, ownPid, warnings, false);
        }
    }

    Look observe();
}
