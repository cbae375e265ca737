package dev.fleet.domain.port.out;

import dev.fleet.domain.host.HostProcess;
import java.util.List;

/**
 * Every process the invoking user may see, as {@code fleet host} needs it (the contract, §14). Reads
 * only: no signal, not even 0; bounded like the fleet's own observation.
 */
public interface HostProcessTable {

    /** One look at the table. */
    record Look(List<HostProcess> processes, String bootId, long ownPid, List<String> warnings) {
        public Look {
            processes = List.copyOf(processes);
            warnings = List.copyOf(warnings);
        }
    }

    Look observe();
}
