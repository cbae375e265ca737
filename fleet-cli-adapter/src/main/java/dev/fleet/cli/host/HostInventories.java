package dev.fleet.cli.host;

import dev.fleet.clientconfig.ClientConfigFiles;
import dev.fleet.domain.inventory.HostInventoryService;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.observer.ProcessObservers;
import dev.fleet.observer.ServerPatterns;
import java.util.List;

/**
 * The wiring of {@code fleet host}'s inventory (and of {@code fleet_host_strays}): this user's client
 * configurations, as {@code HOME} and {@code XDG_CONFIG_HOME} place them, and this platform's process
 * table, classified by the domain's read-only service. The fleet's own processes are found by the same
 * matcher (RE2J) that {@code fleet assess} observes them with, so a process is never in both reports,
 * nor in neither.
 */
public final class HostInventories {

    private HostInventories() {
    }

    /** The host's inventory, the processes matching {@code rosterPatterns} (a valid roster's) left to the fleet's own part. */
    public static HostInventoryUseCase forThisHost(List<String> rosterPatterns) {
        return new HostInventoryService(new ClientConfigFiles(System.getenv()),
                ProcessObservers.hostTableForThisPlatform(), ServerPatterns.compile(rosterPatterns)::matches);
    }
}
