package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Liquibase's table names are every tool's to take: a file whose {@code databasechangelog} or
 * {@code databasechangeloglock} another tool made in its own shape is refused by the migration, naming the
 * table and what it lacks, in fleet's words, before anything is changed. Liquibase failed on them half way,
 * telling the operator to check the table's permissions, or printing SQLite's "no such column: locked", after
 * the file had been switched to WAL.
 */
class ForeignChangelogTablesTest {

    @TempDir
    Path dir;

    /**
     * Each table another tool made under Liquibase's names, its statements split on {@code ;}, and what the refusal
     * says of it. A lower-case history with Liquibase's columns is refused too: Liquibase looks for its table by its
     * exact name, and failed to make it anew ("table already exists").
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "CREATE TABLE databasechangelog (x INTEGER); INSERT INTO databasechangelog VALUES (1)"
                + " | databasechangelog is not Liquibase's table (it lacks id, author, filename, dateexecuted) (another "
                + "tool made it); nothing was changed",
        "CREATE TABLE DatabaseChangeLogLock (id INTEGER, owner TEXT)"
                + " | DatabaseChangeLogLock is not Liquibase's table (it lacks locked, lockgranted, lockedby)",
        "CREATE TABLE history (id TEXT, author TEXT, filename TEXT, dateexecuted TEXT); "
                + "CREATE VIEW DATABASECHANGELOG AS SELECT * FROM history"
                + " | DATABASECHANGELOG is a view, not Liquibase's table",
        "CREATE TABLE databasechangelog (id TEXT, author TEXT, filename TEXT, dateexecuted TEXT)"
                + " | databasechangelog is not Liquibase's table (Liquibase names its own DATABASECHANGELOG)",
    })
    void aTableOfAnotherToolUnderLiquibasesNameIsRefusedSayingWhyAndNothingChanges(String statements, String why)
            throws Exception {
        Path file = fileHolding(statements.split(";"));

        String refusal = refusalOf(file);

        assertTrue(refusal.contains(why), refusal);
        assertUnchanged(file, refusal);
    }

    @Test
    void liquibasesOwnTablesAndTablesOfOtherNamesPass() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        RawSqlite.execute(file, "CREATE TABLE databasechangelog_archive (x INTEGER)", "PRAGMA user_version = 5");

        new SqliteRegistryWriter(file).migrate();

        assertEquals(7, RawSqlite.userVersion(file));
    }

    private Path fileHolding(String... statements) throws SQLException {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, statements);
        return file;
    }

    private static String refusalOf(Path file) {
        return assertThrows(RegistryStorageException.class, () -> new SqliteRegistryWriter(file).migrate()).getMessage();
    }

    /** One line of fleet's, and the file as the other tool left it: no registry table, no WAL, no version. */
    private static void assertUnchanged(Path file, String refusal) throws SQLException {
        assertFalse(refusal.contains("\n") || refusal.contains("liquibase.exception") || refusal.contains("SQLITE_"),
                refusal);
        assertEquals(0, RawSqlite.query(file, "SELECT name FROM sqlite_master WHERE name = 'mcp_server_runtimes'").size());
        assertEquals("delete", RawSqlite.scalar(file, "PRAGMA journal_mode"));
        assertEquals(0, RawSqlite.userVersion(file));
    }
}
