package dev.fleet.cli;

import dev.fleet.cli.text.Printable;
import dev.fleet.registry.sqlite.RegistryLocation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Option;

/** {@code --registry PATH}, else {@code FLEET_REGISTRY}, else the contract's XDG state path. */
final class RegistryOption {

    @Option(names = "--registry", paramLabel = "PATH", converter = PathConverter.class,
            description = {"Registry file. Default: $FLEET_REGISTRY, else",
                "gitea-tools/control_plane.sqlite3 in $XDG_STATE_HOME",
                "(~/.local/state when unset or relative)."})
    Path path;

    /** Whether the relative XDG_STATE_HOME warning was given: once per process, however often the path is asked. */
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    /** @throws ConfigurationException when the environment locates no registry (exit 2, one line) */
    Path path() {
        if (path != null) {
            return path.toAbsolutePath().normalize();
        }
        if (RegistryLocation.ignoresStateHome(System.getenv()) && !WARNED.getAndSet(true)) {
            // stderr, never stdout: over stdio, stdout is the protocol's.
            System.err.println("fleet: warning: XDG_STATE_HOME is relative (" + Printable.of(System.getenv(
                    RegistryLocation.STATE_HOME_ENV)) + "); ignored as the XDG spec says, using ~/.local/state");
        }
        try {
            return RegistryLocation.defaultPath().toAbsolutePath().normalize();
        } catch (IllegalStateException e) {
            throw new ConfigurationException(e.getMessage());
        }
    }

    /** Where the path came from, for an error about it: the variable, when it named the file. */
    String origin() {
        return path == null && RegistryLocation.namedByEnvironment()
                ? " (from $" + RegistryLocation.REGISTRY_ENV + ")" : "";
    }

    /** Whether the operator named the file ({@code --registry} or {@code FLEET_REGISTRY}) rather than taking the default. */
    boolean named() {
        return path != null || RegistryLocation.namedByEnvironment();
    }
}
