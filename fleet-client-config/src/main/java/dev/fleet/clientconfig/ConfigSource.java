package dev.fleet.clientconfig;

import dev.fleet.domain.host.ClientKind;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One configuration file to read: whose it is, how its entries are laid out, and the project it belongs
 * to (null for a user-wide file).
 */
record ConfigSource(ClientKind kind, Path file, Dialect dialect, String project) {

    ConfigSource {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(dialect, "dialect");
        file = file.toAbsolutePath().normalize();
    }
}
