package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migration's side file: never followed through a symbolic link (it would truncate the link's
 * target), gone once the migration ends, and the migration's failures said in one line of our own.
 */
class MigrationLockFileTest {

    @TempDir
    Path dir;

    @Test
    void aSymbolicLinkAtTheLockPathIsRefusedAndItsTargetLeftAlone() throws Exception {
        Path registry = ScratchRegistry.in(dir);
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createSymbolicLink(MigrationLock.lockFile(registry), victim);

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(registry).migrate());

        assertTrue(refused.getMessage().contains("is not a regular file"), refused.getMessage());
        assertEquals("precious\n", Files.readString(victim));
        assertTrue(Files.isSymbolicLink(MigrationLock.lockFile(registry)), "the link is left as it was");
    }

    @Test
    void aServersRegistrationRefusesTheLinkToo() throws Exception {
        Path registry = ScratchRegistry.in(dir);
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createSymbolicLink(MigrationLock.lockFile(registry), victim);

        assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(registry).register(registration(), Optional.empty()));

        assertEquals("precious\n", Files.readString(victim));
    }

    @Test
    void noLockFileIsLeftBehindByAMigrationOrARegistration() throws Exception {
        Path registry = ScratchRegistry.migratedIn(dir);
        assertFalse(Files.exists(MigrationLock.lockFile(registry)), "after migrate");

        Path fresh = ScratchRegistry.in(Files.createDirectory(dir.resolve("fresh")));
        new SqliteRegistryWriter(fresh).register(registration(), Optional.empty());
        assertFalse(Files.exists(MigrationLock.lockFile(fresh)), "after a first registration");
        new SqliteRegistryWriter(fresh).migrate();
        assertFalse(Files.exists(MigrationLock.lockFile(fresh)), "after migrating again");
    }

    @Test
    void migrationsOneAfterAnotherOnManyThreadsAllSucceedAndLeaveNoLock() throws Exception {
        Path registry = ScratchRegistry.in(dir);
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int i = 0; i < 6; i++) {
            Thread thread = new Thread(() -> {
                try {
                    new SqliteRegistryWriter(registry).migrate();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(120_000);
        }
        assertEquals(java.util.List.of(), java.util.List.copyOf(failures));
        assertFalse(Files.exists(MigrationLock.lockFile(registry)));
    }

    @Test
    void aFileThatIsNotSqliteIsSaidSoInOurWords() throws Exception {
        Path registry = Files.writeString(ScratchRegistry.in(dir), "this is a shopping list, not a database\n".repeat(20));

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(registry).migrate());

        assertTrue(refused.getMessage().contains("not a SQLite database"), refused.getMessage());
        assertFalse(refused.getMessage().contains("ConnectionCallable"), refused.getMessage());
        assertEquals(1, refused.getMessage().lines().count());
        assertFalse(Files.exists(MigrationLock.lockFile(registry)));
    }

    @Test
    void aViewIsRefusedInOneLineBeforeLiquibaseRuns() throws Exception {
        Path registry = HostileRegistryTest.view(dir, "FROM n", "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(registry).migrate());

        assertTrue(refused.getMessage().contains("is a view, not a table"), refused.getMessage());
        assertEquals(1, refused.getMessage().lines().count());
        assertEquals(0, ((Number) RawSqlite.scalar(registry,
                "SELECT count(*) FROM sqlite_master WHERE name LIKE 'DATABASECHANGELOG%'")).intValue(), "nothing was changed");
    }

    @Test
    void aViewIsRefusedEvenWhenATriggerOfTheSameNameIsListedFirst() throws Exception {
        Path registry = dir.resolve("trigger-first.sqlite3");
        RawSqlite.execute(registry, "CREATE TABLE other (a TEXT)",
                "CREATE TRIGGER mcp_server_runtimes AFTER INSERT ON other BEGIN SELECT 1; END",
                "CREATE VIEW mcp_server_runtimes AS SELECT 'rt' AS runtime_id");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(registry).migrate());

        assertTrue(refused.getMessage().contains("is a view, not a table"), refused.getMessage());
        assertEquals(0, ((Number) RawSqlite.scalar(registry,
                "SELECT count(*) FROM sqlite_master WHERE name LIKE 'DATABASECHANGELOG%'")).intValue(), "nothing was changed");
    }

    private static Registration registration() {
        return RowBuilder.registered(Roster.defaultRoster().members().get(0), 43001).at(Instant.now()).registration();
    }
}
