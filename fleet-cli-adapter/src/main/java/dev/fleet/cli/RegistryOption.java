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

    Path path() {
        return (path != null ? path : RegistryLocation.defaultPath()).toAbsolutePath().normalize();
    }

    /** Whether the operator named the file ({@code --registry} or {@code FLEET_REGISTRY}) rather than taking the default. */
    boolean named() {
        return path != null || RegistryLocation.namedByEnvironment();
    }
}
