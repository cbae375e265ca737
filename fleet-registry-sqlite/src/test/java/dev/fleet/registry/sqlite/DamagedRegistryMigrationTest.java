package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryReason;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry whose schema is whole but whose rows' pages are damaged (a disk, a copy cut short, another
 * tool's bug): every read of it is {@code corrupt}, so {@code registry migrate} must not call it current.
 */
class DamagedRegistryMigrationTest {

    @TempDir
    Path dir;

    @Test
    void migrateRefusesAFileWhoseRowPagesAreDamagedAndChangesNothing() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        for (int i = 0; i < 200; i++) {
            RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-" + i, 5000 + i, "2026-07-28T02:00:00Z"));
        }
        RawSqlite.execute(file, "PRAGMA wal_checkpoint(TRUNCATE)");
        damageLastPage(file);
        assertEquals(RegistryReason.CORRUPT, ScratchRegistry.unreadable(new SqliteRegistryReader(file).readAll()).reason(),
                "the rows read as corrupt");
        String before = RawSqlite.sha256(file);

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(file).migrate());

        assertTrue(refused.getMessage().startsWith("registry " + file + " cannot be migrated: it is damaged (SQLite's "
                + "quick check: "), refused.getMessage());
        assertTrue(refused.getMessage().endsWith("); nothing was changed"), refused.getMessage());
        assertTrue(refused.getMessage().lines().count() == 1, refused.getMessage());
        assertEquals(before, RawSqlite.sha256(file), "nothing was changed");
    }

    @Test
    void aWholeFileStillMigrates() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-1", 5001, "2026-07-28T02:00:00Z"));

        new SqliteRegistryWriter(file).migrate();

        assertTrue(new SqliteRegistryReader(file).readAll().readable());
    }

    /**
     * The check reads the tables fleet reads and writes, not the whole file: SQLite's quick check of every page took
     * 33 s for a 2 GB file another tool kept beside the registry (cold cache, holding the migration lock all along),
     * and grows with the file. Damage in another tool's table, which no read of fleet's touches, is no reason to refuse.
     */
    @Test
    void damageInAnotherToolsTableIsNotReadAndTheRegistryMigrates() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-1", 5001, "2026-07-28T02:00:00Z"));
        RawSqlite.execute(file, "CREATE TABLE their_blobs (id INTEGER PRIMARY KEY, body BLOB)");
        for (int i = 0; i < 50; i++) {
            RawSqlite.execute(file, "INSERT INTO their_blobs (body) VALUES (zeroblob(2000))");
        }
        RawSqlite.execute(file, "PRAGMA wal_checkpoint(TRUNCATE)");
        damageLastPage(file);
        assertTrue(!"ok".equals(RawSqlite.scalar(file, "PRAGMA quick_check(1)")), "the file itself is damaged");

        new SqliteRegistryWriter(file).migrate();

        assertTrue(new SqliteRegistryReader(file).readAll().readable(), "fleet's table reads whole");
    }

    /** Overwrites the last page of the file (a leaf of the table written last) past its header with noise. */
    private static void damageLastPage(Path file) throws Exception {
        long pageSize = ((Number) RawSqlite.scalar(file, "PRAGMA page_size")).longValue();
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            long lastPage = raw.length() - pageSize;
            byte[] noise = new byte[(int) pageSize];
            Arrays.fill(noise, (byte) 0x5A);
            raw.seek(lastPage);
            raw.write(noise);
        }
    }
}
