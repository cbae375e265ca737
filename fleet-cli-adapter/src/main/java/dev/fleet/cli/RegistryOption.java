package dev.fleet.cli;

import dev.fleet.registry.sqlite.RegistryLocation;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --registry PATH}, else {@code FLEET_REGISTRY}, else the contract's XDG state path. */
final class RegistryOption {

    @Option(names = "--registry", paramLabel = "PATH",
            description = "Registry file. Default: $FLEET_REGISTRY, else "
                    + "$${XDG_STATE_HOME:-$HOME/.local/state}/gitea-tools/control_plane.sqlite3.")
    Path path;

    /** @throws ConfigurationException when the environment locates no registry (exit 2, one line) */
    Path path() {
        if (path != null) {
            return path.toAbsolutePath().normalize();
        }
        try {
            return RegistryLocation.defaultPath().toAbsolutePath().normalize();
        } catch (IllegalStateException e) {
            throw new ConfigurationException(e.getMessage());
        }
    }

    /** Whether the operator named the file ({@code --registry} or {@code FLEET_REGISTRY}) rather than taking the default. */
    boolean named() {
        return path != null || RegistryLocation.namedByEnvironment();
    }
}
