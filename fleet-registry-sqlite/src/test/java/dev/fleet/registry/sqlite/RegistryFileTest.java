package dev.fleet.registry.sqlite;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of the registry's two sides start from: the registry file in the test's own
 * temporary folder, not created yet, with a writer and a reader on it. A test class that needs
 * either side opened differently (another clock, a shorter busy timeout) overrides
 * {@link #openWriter} or {@link #openReader}.
 */
abstract class RegistryFileTest {

    @TempDir
    Path dir;
    Path file;
    SqliteRegistryWriter writer;
    SqliteRegistryReader reader;

    @BeforeEach
    void openRegistry() {
        file = ScratchRegistry.in(dir);
        writer = openWriter(file);
        reader = openReader(file);
    }

    SqliteRegistryWriter openWriter(Path registry) {
        return new SqliteRegistryWriter(registry);
    }

    SqliteRegistryReader openReader(Path registry) {
        return new SqliteRegistryReader(registry);
    }
}
