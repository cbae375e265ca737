package dev.fleet.domain.port.in;

import dev.fleet.domain.host.HostInventory;
import java.nio.file.Path;
import java.util.List;

/**
 * Every MCP server on this host, by client (the contract, §14): read the clients' configurations, look at
 * the process table, classify. Read-only: it signals nothing; the stop script it returns is for the
 * operator to run.
 */
public interface HostInventoryUseCase {

    /**
     * What {@code fleet host} was asked for.
     *
     * @param configFiles configuration files to read besides the known ones ({@code --config})
     * @param project the project whose configurations to read ({@code --project}, the current directory
     *     by default)
     * @param all whether to show every process that looks like an MCP server ({@code --all})
     */
    record Request(List<Path> configFiles, Path project, boolean all) {
        public Request {
            configFiles = List.copyOf(configFiles);
        }
    }

    /** The host's inventory now, with the stop script of its strays. */
    HostInventory inventory(Request request);
}
