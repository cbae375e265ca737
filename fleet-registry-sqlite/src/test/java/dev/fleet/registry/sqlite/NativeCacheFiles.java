package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files under a native-library cache folder, as the tests of the copy and of the driver's
 * configuration both check them: what is there, and that the driver's cleanup would delete none of it.
 */
final class NativeCacheFiles {

    private NativeCacheFiles() {
    }

    static List<Path> everyFileUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    /** The driver's cleanup deletes {@code sqlite-<version>*} names in {@code org.sqlite.tmpdir}, the root. */
    static void assertNoNameTheDriverWouldCleanUp(Path root) {
        try (Stream<Path> entries = Files.walk(root)) {
            entries.filter(entry -> !entry.equals(root)).forEach(entry -> assertFalse(entry.getFileName().toString().startsWith("sqlite-"),
                    entry.toString()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
