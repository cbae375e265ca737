package dev.fleet.domain.port.out;

import dev.fleet.domain.host.ConfiguredServer;
import java.nio.file.Path;
import java.util.List;

/**
 * The MCP clients' configurations of the invoking user (the contract, §14), read and never run. A file
 * that is absent is skipped; one that cannot be read or parsed is one warning, never a failure.
 */
public interface ClientConfigurations {

    /** What was read: the stdio servers in the order read, and one warning line per file that failed. */
    record Read(List<ConfiguredServer> servers, List<String> warnings) {
        public Read {
            servers = List.copyOf(servers);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Every known client's configuration files, the project's ({@code project}) and every one of
     * {@code extraFiles} (kind told by name or content).
     */
    Read read(List<Path> extraFiles, Path project);
}
