package dev.fleet.domain.host;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything {@code fleet host} classifies, read once: the configured servers, the processes the
 * invoking user may see, and what could not be read. Classification is a pure function of it (the
 * contract, §14: the same snapshot gives the same bytes).
 *
 * @param configured every stdio server of every configuration read, in the order read
 * @param processes every process observed, in any order
 * @param bootId the host's boot id ({@code /proc/sys/kernel/random/boot_id}), which makes a start in
 *     clock ticks mean one instant
 * @param ownPid the pid of the observing process, never reported
 * @param fleetPids the processes whose command line matches a server pattern of the fleet's roster, as
 *     the fleet's own observer matches it: they and their trees are the fleet's own part (§5), not this report's
 * @param warnings one line each, for a configuration that could not be read and anything else the
 *     operator should know
 * @param processTableRead whether the process table could be listed: without it no stray is ruled out
 * @param partial whether the table may leave out live processes of other users ({@code /proc} mounted with
 *     {@code hidepid}, and the reader without CAP_SYS_PTRACE and not of the mount's {@code gid=} group): a parent or
 *     a holder of a pipe that is not in it may then be live, so its absence proves no client gone
 */
public record HostSnapshot(List<ConfiguredServer> configured, List<HostProcess> processes, String bootId,
        long ownPid, Set<Long> fleetPids, List<String> warnings, boolean processTableRead, boolean partial) {

    public HostSnapshot {
        configured = List.copyOf(configured);
        processes = List.copyOf(processes);
        Objects.requireNonNull(bootId, "bootId");
        fleetPids = Set.copyOf(fleetPids);
        warnings = List.copyOf(warnings);
    }

    /** A snapshot of a process table that could be listed, every process in it. */
    public HostSnapshot(List<ConfiguredServer> configured, List<HostProcess> processes, String bootId, long ownPid,
            Set<Long> fleetPids, List<String> warnings) {
        this(configured, processes, bootId, ownPid, fleetPids, warnings, true, false);
    }
}
