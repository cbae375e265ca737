package dev.fleet.domain.inventory;

import dev.fleet.domain.host.HostClassifier;
import dev.fleet.domain.host.HostInventory;
import dev.fleet.domain.host.HostSnapshot;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.domain.port.out.ClientConfigurations;
import dev.fleet.domain.port.out.HostProcessTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Reads the clients' configurations, then looks at the process table once, and classifies the snapshot
 * ({@link HostClassifier}). It holds only read ports: it can neither write the registry nor signal a
 * process. The configurations are read first, so a server started while they are read is seen.
 */
public final class HostInventoryService implements HostInventoryUseCase {

    private final ClientConfigurations configurations;
    private final HostProcessTable processTable;
    private final Predicate<String> fleetServer;

    /**
     * @param fleetServer whether a command line is one of the fleet's own servers: the matcher of the
     *     roster's server patterns that the fleet's observer uses (its part is left out of this report)
     */
    public HostInventoryService(ClientConfigurations configurations, HostProcessTable processTable,
            Predicate<String> fleetServer) {
        this.configurations = Objects.requireNonNull(configurations, "configurations");
        this.processTable = Objects.requireNonNull(processTable, "processTable");
        this.fleetServer = Objects.requireNonNull(fleetServer, "fleetServer");
    }

    @Override
    public HostInventory inventory(Request request) {
        return HostClassifier.inventory(snapshot(request), request.all());
    }

    /** The evidence of one inventory, taken now. */
    private HostSnapshot snapshot(Request request) {
        ClientConfigurations.Read read = configurations.read(request.configFiles(), request.project());
        HostProcessTable.Look look = processTable.observe(fleetServer);
        List<String> warnings = new ArrayList<>(read.warnings());
        warnings.addAll(look.warnings());
        return new HostSnapshot(read.servers(), look.processes(), look.bootId() == null ? "" : look.bootId(),
                look.ownPid(), look.fleetPids(), warnings, look.read(), look.partial());
    }
}
