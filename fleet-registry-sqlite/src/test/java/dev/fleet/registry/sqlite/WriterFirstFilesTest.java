package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.ScratchRegistry.unreadable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * A registry a read-only reader cannot read until a writer has opened it, and other I/O errors of
 * SQLite's: each is {@code io_error} with a detail that says what happened and who can mend it,
 * never a bare reason and never the driver's own text.
 */
class WriterFirstFilesTest {

    /** A rollback journal's header starts with these eight bytes; what follows here is no real page. */
    private static final byte[] JOURNAL_MAGIC = HexFormat.of().parseHex("d9d505f920a163d7");

    @TempDir
    Path dir;

    @Test
    void aHotJournalBesideTheRegistryIsNamedAndAWriterMendsIt() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        Path journal = file.resolveSibling(file.getFileName() + "-journal");
        byte[] planted = new byte[1024];
        System.arraycopy(JOURNAL_MAGIC, 0, planted, 0, JOURNAL_MAGIC.length);
        planted[20] = 1; // a non-zero page count: a journal with work to undo
        Files.write(journal, planted);

        RegistryRead.Unreadable read = unreadable(new SqliteRegistryReader(file).readAll());

        assertEquals(RegistryReason.IO_ERROR, read.reason());
        assertTrue(read.detail().startsWith("a -journal beside it"), read.detail());
        assertTrue(read.detail().endsWith("run a fleet server or fleet registry migrate once"), read.detail());
        assertFalse(read.detail().contains(dir.toString()), read.detail());

        new SqliteRegistryWriter(file).migrate(); // what the detail asks the owner to do
        assertTrue(new SqliteRegistryReader(file).readAll().readable(), "a writer rolled the journal back");
    }

    @Test
    void aVirtualTableOfAModuleThisSqliteLacksIsNamed() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIRTUAL TABLE mcp_server_runtimes USING fts5(runtime_id)",
                "PRAGMA writable_schema = ON",
                "UPDATE sqlite_master SET sql = 'CREATE VIRTUAL TABLE mcp_server_runtimes USING missing_module(runtime_id)' "
                        + "WHERE name = 'mcp_server_runtimes'");

        RegistryRead.Unreadable read = unreadable(new SqliteRegistryReader(file).readAll());

        assertEquals(RegistryReason.IO_ERROR, read.reason());
        assertEquals("mcp_server_runtimes is a virtual table of a module this program's SQLite does not have (another "
                + "tool made it)", read.detail());
    }

    @Test
    void anyOtherIoErrorOfSqlitesIsNamedByItsCodeNotItsText() {
        SQLException failure = new SQLException("reading", new SQLiteException("disk I/O error reading /home/alice/x",
                SQLiteErrorCode.SQLITE_IOERR_SHORT_READ));

        RegistryRead.Unreadable read = unreadable(ReadFailures.readFor(failure, dir.resolve("x")));

        assertEquals(RegistryReason.IO_ERROR, read.reason());
        assertEquals("SQLite reported SQLITE_IOERR_SHORT_READ", read.detail());
    }
}
