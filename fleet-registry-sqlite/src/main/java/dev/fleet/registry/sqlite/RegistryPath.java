package dev.fleet.registry.sqlite;

import dev.fleet.registry.schema.RegistryStorageException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a registry can be made at a path, checked before SQLite opens it or creates anything
 * beside it: the path is a regular file or absent, and its directory exists or, where allowed, is
 * created.
 */
final class RegistryPath {

    private RegistryPath() {
    }

    /** @throws RegistryStorageException naming the path and the cause */
    static void check(Path file, SqliteRegistryWriter.Directories directories) {
        requireRegularOrAbsent(file);
        createParentDirectories(file, directories);
    }

    /** Refuses a FIFO, socket, device or directory before SQLite opens it or creates anything beside it. */
    private static void requireRegularOrAbsent(Path file) {
        switch (RegistryFileKind.of(file)) {
            case NOT_A_FILE -> throw new RegistryStorageException(RegistryFileKind.refusal(file), null);
            case UNRESOLVABLE -> throw new RegistryStorageException(RegistryFileKind.unresolvable(file), null);
            default -> {
                // absent or a regular file: usable
            }
        }
    }

    private static void createParentDirectories(Path file, SqliteRegistryWriter.Directories directories) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || Files.isDirectory(parent)) {
            return;
        }
        if (directories == SqliteRegistryWriter.Directories.MUST_EXIST) {
            if (Files.isDirectory(parent)) {
                return; // made by another process since the first look
            }
            throw Files.exists(parent) ? notADirectory(file, parent)
                    : new RegistryStorageException("registry " + file + ": directory " + parent + " does not exist "
                            + "(only the default location's directories are created; create it or choose another path)",
                            null);
        }
        // Servers started together create the same directory at once: createDirectories accepts one
        // another process has just made, and refuses only what exists and is not a directory.
        try {
            Files.createDirectories(parent);
        } catch (FileAlreadyExistsException e) {
            throw notADirectory(file, parent);
        } catch (IOException e) {
            throw new RegistryStorageException("registry " + file + ": cannot create directory " + parent + ": "
                    + FileErrors.describe(e), e);
        }
    }

    private static RegistryStorageException notADirectory(Path file, Path parent) {
        return new RegistryStorageException("registry " + file + ": " + parent + " is not a directory", null);
    }
}
