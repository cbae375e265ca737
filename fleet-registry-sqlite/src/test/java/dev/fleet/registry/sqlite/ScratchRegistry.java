package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.fleet.domain.RegistryRead;
import java.nio.file.Path;

/** Where a test keeps a registry of its own: the contract's file name in the test's temporary folder. */
final class ScratchRegistry {

    private ScratchRegistry() {
    }

    /** The registry file in {@code dir}, not created. */
    static Path in(Path dir) {
        return dir.resolve("control_plane.sqlite3");
    }

    /** The registry file in {@code dir}, created and migrated as {@code fleet registry migrate} leaves it. */
    static Path migratedIn(Path dir) {
        Path registry = in(dir);
        new SqliteRegistryWriter(registry).migrate();
        return registry;
    }

    /** {@code read} as the unreadable registry a test expects, failing the test when it was read. */
    static RegistryRead.Unreadable unreadable(RegistryRead read) {
        return assertInstanceOf(RegistryRead.Unreadable.class, read);
    }
}
