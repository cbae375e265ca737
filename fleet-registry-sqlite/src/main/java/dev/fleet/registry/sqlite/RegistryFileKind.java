package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What sits at the registry path. SQLite opens whatever it is given: a FIFO blocks the open forever
 * and a device such as {@code /dev/null} gets {@code -journal} and lock files created beside it. So
 * only a regular file (or a link to one) is ever handed to the driver, and only an absent path may
 * become one.
 */
enum RegistryFileKind {
    /** Nothing there yet (or a link to nothing: SQLite would create its target, as for any new registry). */
    ABSENT,
    /** A regular file, or a symbolic link to one. */
    REGULAR,
    /** A FIFO, socket, device or directory: never a registry. */
    NOT_A_FILE,
    /** A symbolic link that cannot be followed: a loop, or more than the system's 40 links in a row. */
    UNRESOLVABLE;

    static RegistryFileKind of(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).isRegularFile() ? REGULAR : NOT_A_FILE;
        } catch (NoSuchFileException e) {
            return ABSENT;
        } catch (FileSystemException e) {
            // ELOOP is not "missing": something is there that cannot be followed. Anything else (a
            // folder on the way that cannot be searched) reads as absent, as Files.exists has it.
            return e.getReason() != null && e.getReason().contains("symbolic link") ? UNRESOLVABLE : ABSENT;
        } catch (IOException | SecurityException e) {
            return ABSENT;
        }
    }

    /** What an operator is told about a path of this kind that is not a usable file. */
    String detail() {
        return this == UNRESOLVABLE ? "a symbolic link that does not resolve (a loop, or more than 40 links)"
                : "not a regular file";
    }

    /** The one line an operator reads when a writer refuses the path. */
    static String refusal(Path file) {
        return "registry " + file + " is not a regular file (a FIFO, socket, device or directory): refusing to "
                + "use it; point --registry or FLEET_REGISTRY at a SQLite file";
    }

    /** The one line for a link that cannot be followed. */
    static String unresolvable(Path file) {
        return "registry " + file + " is " + UNRESOLVABLE.detail() + ": refusing to use it";
    }
}
