package dev.fleet.registry.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What sits at the registry path. SQLite opens whatever it is given: a FIFO blocks the open forever
 * and a device such as {@code /dev/null} gets {@code -journal} and lock files created beside it. So
 * only a regular file (or a link to one) is ever handed to the driver, and only an absent path may
 * become one.
 */
enum RegistryFileKind {
    /** Nothing there yet. */
    ABSENT,
    /** A regular file, or a symbolic link to one. */
    REGULAR,
    /** A FIFO, socket, device or directory: never a registry. */
    NOT_A_FILE;

    static RegistryFileKind of(Path file) {
        if (Files.isRegularFile(file)) {
            return REGULAR;
        }
        // A dangling link is absent too: SQLite would create its target, as for any new registry.
        return Files.exists(file) ? NOT_A_FILE : ABSENT;
    }

    /** The one line an operator reads when a writer refuses the path. */
    static String refusal(Path file) {
        return "registry " + file + " is not a regular file (a FIFO, socket, device or directory): refusing to "
                + "use it; point --registry or FLEET_REGISTRY at a SQLite file";
    }
}
