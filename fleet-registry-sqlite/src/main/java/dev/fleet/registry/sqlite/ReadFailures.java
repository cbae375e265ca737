package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sqlite.SQLiteErrorCode;

/**
 * A failed read as the registry read an operator can act on (docs/CONTRACT.md): its reason
 * ({@link SqliteErrors}) and what exactly went wrong. Writes are classified by {@link SqliteErrors}
 * and reported by {@link WriteFailures}.
 */
final class ReadFailures {

    private ReadFailures() {
    }

    /**
     * The failed read as a reason with, where there is something to say, a detail in this program's
     * words (never the driver's text, which may quote the file).
     */
    static RegistryRead readFor(Throwable failure, Path file) {
        if (failure instanceof ReadBounds.ReadRefused refused) {
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, refused.getMessage());
        }
        RegistryReason reason = SqliteErrors.reasonFor(failure, file);
        int primary = SqliteErrors.primaryCode(failure);
        String detail = null;
        if (primary == SQLiteErrorCode.SQLITE_INTERRUPT.code) {
            detail = "reading " + SqliteRows.TABLE + " took longer than " + ReadBounds.READ_TIME.toSeconds()
                    + " s: read stopped (an endless view?)";
        } else if (primary == SQLiteErrorCode.SQLITE_NOMEM.code) {
            detail = "reading " + SqliteRows.TABLE + " needed more than " + (ReadBounds.HEAP_BYTES >> 20)
                    + " MiB of SQLite's memory: read stopped (a view that sorts without end?)";
        } else if (primary == SQLiteErrorCode.SQLITE_TOOBIG.code) {
            detail = "a value in " + SqliteRows.TABLE + " is longer than " + (ReadBounds.VALUE_BYTES >> 20)
                    + " MiB: read refused";
        } else if (reason == RegistryReason.IO_ERROR && Files.exists(file) && !Files.isReadable(file)) {
            detail = "this user may not read the file (permission denied)";
        } else if (reason == RegistryReason.IO_ERROR && walIndexUnavailable(file)) {
            detail = "SQLite cannot open it read-only: its -shm index (which a WAL-mode registry needs) is "
                    + "missing and this user cannot create it in the registry's directory; let the registry's "
                    + "owner run a fleet server or fleet registry migrate once";
        } else if (reason == RegistryReason.IO_ERROR) {
            detail = sqliteDetail(failure);
        }
        return RegistryRead.unreadable(reason, detail);
    }

    /**
     * What SQLite's own code for an I/O error says, in this program's words where it has some: a reader
     * opens the file read-only, so whatever needs a writer first (a hot journal to roll back, a WAL to
     * recover) is the registry owner's to do, which any writer does on opening it. Else the code's name,
     * which an operator can look up (never the driver's text, which may quote the file or a hostile
     * schema). Null for a failure that is not SQLite's.
     */
    private static String sqliteDetail(Throwable failure) {
        SQLiteErrorCode code = SqliteErrors.resultCode(failure);
        if (code == null) {
            return null;
        }
        String writerFirst = "; let the registry's owner run a fleet server or fleet registry migrate once";
        return switch (code) {
            case SQLITE_READONLY_ROLLBACK -> "a -journal beside it (left by a writer that stopped mid-transaction, "
                    + "or put there) must be rolled back before it can be read, and a read-only reader may not"
                    + writerFirst;
            case SQLITE_READONLY_RECOVERY -> "its -wal must be recovered before it can be read, and a read-only "
                    + "reader may not" + writerFirst;
            default -> SqliteErrors.namesUnknownModule(failure)
                    ? SqliteRows.TABLE + " is a virtual table of a module this program's SQLite does not have "
                            + "(another tool made it)"
                    : "SQLite reported " + code.name();
        };
    }

    /** A reader of a WAL file needs its {@code -shm} index: there, or creatable beside it. */
    private static boolean walIndexUnavailable(Path file) {
        Path shm = file.resolveSibling(file.getFileName() + "-shm");
        Path folder = file.toAbsolutePath().getParent();
        return !Files.exists(shm) && folder != null && !Files.isWritable(folder);
    }
}
