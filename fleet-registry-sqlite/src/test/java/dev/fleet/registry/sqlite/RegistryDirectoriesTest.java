package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.registry.sqlite.SqliteRegistryWriter.Directories;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's directory: created for the default location, required for a path the operator
 * named, and every failure names its cause.
 */
class RegistryDirectoriesTest {

    @TempDir
    Path dir;

    @Test
    void aNamedPathWhoseDirectoryIsMissingIsRefusedAndNothingIsCreated() {
        Path registry = dir.resolve("no-such-dir/deeper/r.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry, Directories.MUST_EXIST);

        RegistryStorageException refused = assertThrows(RegistryStorageException.class, writer::migrate);

        assertEquals("registry " + registry + ": directory " + registry.getParent() + " does not exist (only the "
                + "default location's directories are created; create it or choose another path)", refused.getMessage());
        assertFalse(Files.exists(dir.resolve("no-such-dir")), "nothing was created");
        assertThrows(RegistryStorageException.class, writer::checkLocation);
        assertFalse(Files.exists(dir.resolve("no-such-dir")), "nothing was created");
    }

    @Test
    void aNamedPathInAnExistingDirectoryIsMigrated() {
        Path registry = dir.resolve("r.sqlite3");
        new SqliteRegistryWriter(registry, Directories.MUST_EXIST).migrate();
        assertTrue(Files.isRegularFile(registry));
    }

    @Test
    void theDefaultLocationsDirectoriesAreCreated() {
        Path registry = dir.resolve("state/gitea-tools/r.sqlite3");
        new SqliteRegistryWriter(registry, Directories.CREATE_MISSING).checkLocation();
        assertTrue(Files.isDirectory(registry.getParent()));
        assertFalse(Files.exists(registry), "checking the location writes no registry");
    }

    @Test
    void serversCreatingTheDefaultDirectoryAtOnceAllFindIt() throws Exception {
        // Servers a client starts together all create the default location's directory: the one
        // that looks, finds nothing, and sees it exist a moment later must not call it "not a directory".
        int rounds = 1000;
        int servers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(servers);
        try {
            for (int round = 0; round < rounds; round++) {
                Path registry = dir.resolve("round-" + round + "/gitea-tools/r.sqlite3");
                CyclicBarrier together = new CyclicBarrier(servers);
                List<Future<?>> checks = new ArrayList<>();
                for (int i = 0; i < servers; i++) {
                    checks.add(pool.submit(() -> {
                        together.await();
                        RegistryPath.check(registry, Directories.CREATE_MISSING);
                        return null;
                    }));
                }
                for (Future<?> check : checks) {
                    check.get(); // rethrows a refusal
                }
                assertTrue(Files.isDirectory(registry.getParent()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDirectoryThatCannotBeCreatedNamesTheCause() throws Exception {
        Path registry = dir.resolve("a-file/state/r.sqlite3");

        RegistryStorageException refused = refusedBelowAFile(registry, Directories.CREATE_MISSING);

        assertTrue(refused.getMessage().startsWith("registry " + registry + ": cannot create directory "
                + registry.getParent() + ": "), refused.getMessage());
        assertTrue(refused.getMessage().endsWith("Not a directory"), refused.getMessage());
    }

    @Test
    void aParentThatIsAFileIsNamedAsSuch() throws Exception {
        Path registry = dir.resolve("a-file/r.sqlite3");
        RegistryStorageException refused = refusedBelowAFile(registry, Directories.MUST_EXIST);
        assertEquals("registry " + registry + ": " + dir.resolve("a-file") + " is not a directory",
                refused.getMessage());
    }

    @Test
    void aBarePathMessageGetsItsCauseInWords() {
        assertEquals("/srv/state: Permission denied", FileErrors.describe(new AccessDeniedException("/srv/state")));
    }

    /**
     * What a writer says when asked to migrate {@code registry}, below {@code dir/a-file}: root may
     * write anywhere, so a directory is made impossible by a regular file in the way.
     */
    private RegistryStorageException refusedBelowAFile(Path registry, Directories directories) throws Exception {
        Files.writeString(dir.resolve("a-file"), "");
        return assertThrows(RegistryStorageException.class, new SqliteRegistryWriter(registry, directories)::migrate);
    }
}
