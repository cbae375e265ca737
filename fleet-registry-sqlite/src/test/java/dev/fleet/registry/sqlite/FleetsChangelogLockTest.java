package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.lockservice.LockService;
import liquibase.lockservice.LockServiceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What fleet's release of its own stale changelog lock relies on: Liquibase writes the lock's holder as
 * {@code HOST#DESCRIPTION (ADDRESS)}, and fleet gives it the description {@code fleet}. The migration
 * tests hold a lock written by hand in that form; this one has Liquibase take it, so a Liquibase that
 * writes its holder another way fails here rather than leaving fleet refusing its own dead migrations.
 */
class FleetsChangelogLockTest {

    @TempDir
    Path dir;

    @Test
    void aLockLiquibaseTakesForFleetCarriesFleetsMark() throws Exception {
        Path file = ScratchRegistry.in(dir);
        new SqliteRegistryWriter(file).migrate(); // and RegistryChangelog, loaded, has set fleet's description
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            LockService lock = LockServiceFactory.getInstance().getLockService(database);
            lock.waitForLock();
            try {
                List<List<Object>> held = RawSqlite.query(file, "SELECT LOCKED, LOCKEDBY FROM DATABASECHANGELOGLOCK");
                assertEquals(1, held.size(), held.toString());
                assertEquals(1, held.get(0).get(0), held.toString());
                assertTrue(String.valueOf(held.get(0).get(1)).contains("#fleet ("), held.toString());
            } finally {
                lock.releaseLock();
                LockServiceFactory.getInstance().resetAll();
            }
        }
    }
}
