package dev.fleet.cli.host;

import dev.fleet.clientconfig.ClientConfigFiles;
import dev.fleet.domain.inventory.HostInventoryService;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.observer.ProcessObservers;
import java.util.List;

/**
 * The wiring of {@code fleet host}'s inventory (and of {@code fleet_host_strays}): this user's client
 * configurations, as {@code HOME} and {@code XDG_CONFIG_HOME} place them, and this platform's process
 * table, classified by the domain's read-only service.
 */
public final class HostInventories {

    private HostInventories() {
    }

    /** The host's inventory, the processes matching {@code rosterPatterns} left to the fleet's own part. */
    public static HostInventoryUseCase forThisHost(List<String> rosterPatterns) {
        return new HostInventoryService(new ClientConfigFiles(System.getenv()),
                ProcessObservers.hostTableForThisPlatform(), rosterPatterns);
    }
}
