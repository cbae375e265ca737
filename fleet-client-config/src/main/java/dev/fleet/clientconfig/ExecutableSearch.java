package dev.fleet.clientconfig;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a command on {@code PATH} as {@code execvp} does, read-only: the first directory holding a
 * regular, executable file of that name. Empty and relative entries of {@code PATH} are skipped: they
 * name the client's working directory, which {@code fleet} does not know.
 */
final class ExecutableSearch {

    private final List<Path> directories;

    ExecutableSearch(String path) {
        List<Path> found = new ArrayList<>();
        if (path != null) {
            for (String entry : path.split(":", -1)) {
                if (found.size() == ReadBounds.PATH_DIRECTORIES) {
                    break;
                }
                try {
                    Path directory = Path.of(entry);
                    if (!entry.isEmpty() && directory.isAbsolute()) {
                        found.add(directory);
                    }
                } catch (InvalidPathException e) {
                    // Not a path this file system can name: execvp would find nothing there either.
                }
            }
        }
        this.directories = List.copyOf(found);
    }

    /** The absolute path {@code execvp} would run for {@code name} (a name without '/'), if any. */
    Optional<Path> find(String name) {
        for (Path directory : directories) {
            try {
                Path candidate = directory.resolve(name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            } catch (InvalidPathException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
