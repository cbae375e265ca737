package dev.fleet.domain.host;

import java.util.List;

/**
 * One server tree as the classification decided it, before it is reported: its top process, its
 * pids (the top first), its state, its client (null when it has none) and its entry.
 */
record Found(HostProcess root, List<Long> pids, ServerState state, HostProcess client, Entry entry) {

    Found {
        pids = List.copyOf(pids);
    }
}
