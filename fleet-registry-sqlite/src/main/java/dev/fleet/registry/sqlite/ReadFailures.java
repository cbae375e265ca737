package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Maps a failed read to the registry reason an operator can act on (docs/CONTRACT.md). */
final class ReadFailures {

    private ReadFailures() {
    }

    /**
     * The failed read as a reason with, where there is something to say, a detail in this program's
     * words (never the driver's text, which may quote the file).
     */
    static RegistryRead readFor(Throwable failure, Path file) {
        if (failure instanceof ReadBounds.ReadBoundExceeded bound) {
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, bound.getMessage());
        }
        RegistryReason reason = reasonFor(failure, file);
        SQLiteException sqlite = sqliteCause(failure);
        int primary = sqlite == null ? -1 : primaryCode(sqlite);
        String detail = null;
        if (primary == SQLiteErrorCode.SQLITE_INTERRUPT.code) {
            detail = "reading " + RowQuery.TABLE + " took longer than " + ReadBounds.READ_TIME.toSeconds()
                    + " s: read stopped (an endless view?)";
        } else if (primary == SQLiteErrorCode.SQLITE_NOMEM.code) {
            detail = "reading " + RowQuery.TABLE + " needed more than " + (ReadBounds.HEAP_BYTES >> 20)
                    + " MiB of SQLite's memory: read stopped (a view that sorts without end?)";
        } else if (primary == SQLiteErrorCode.SQLITE_TOOBIG.code) {
            detail = "a value in " + RowQuery.TABLE + " is longer than " + (ReadBounds.VALUE_BYTES >> 20)
                    + " MiB: read refused";
        } else if (reason == RegistryReason.IO_ERROR && walIndexUnavailable(file)) {
            detail = "SQLite cannot open it read-only: its -shm index (which a WAL-mode registry needs) is "
                    + "missing and this user cannot create it in the registry's directory; let the registry's "
                    + "owner run a fleet server or fleet registry migrate once";
        }
        return RegistryRead.unreadable(reason, detail);
    }

    /** A reader of a WAL file needs its {@code -shm} index: there, or creatable beside it. */
    static boolean walIndexUnavailable(Path file) {
        Path shm = file.resolveSibling(file.getFileName() + "-shm");
        Path folder = file.toAbsolutePath().getParent();
        return !Files.exists(shm) && folder != null && !Files.isWritable(folder);
    }

    static RegistryReason reasonFor(Throwable failure, Path file) {
        SQLiteException sqlite = sqliteCause(failure);
        if (sqlite == null) {
            return RegistryReason.IO_ERROR;
        }
        // Extended result codes (SQLITE_BUSY_RECOVERY, ...) carry the primary code in their low byte.
        int primary = primaryCode(sqlite);
        if (primary == SQLiteErrorCode.SQLITE_BUSY.code || primary == SQLiteErrorCode.SQLITE_LOCKED.code) {
            return RegistryReason.LOCKED;
        }
        if (primary == SQLiteErrorCode.SQLITE_CORRUPT.code || primary == SQLiteErrorCode.SQLITE_NOTADB.code) {
            return RegistryReason.CORRUPT;
        }
        if (primary == SQLiteErrorCode.SQLITE_CANTOPEN.code && !Files.exists(file)) {
            // Deleted between our existence check and the open.
            return RegistryReason.MISSING;
        }
        if (primary == SQLiteErrorCode.SQLITE_ERROR.code && namesMissingSchema(sqlite.getMessage())) {
            // The table, or a column this reader needs, is absent: a schema this project did not make.
            return RegistryReason.SCHEMA_MISSING;
        }
        return RegistryReason.IO_ERROR;
    }

    private static SQLiteException sqliteCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLiteException sqlite) {
                return sqlite;
            }
        }
        return null;
    }

    private static int primaryCode(SQLiteException sqlite) {
        SQLiteErrorCode code = sqlite.getResultCode();
        int value = code != null && code != SQLiteErrorCode.UNKNOWN_ERROR ? code.code : sqlite.getErrorCode();
        return value & 0xFF;
    }

    private static boolean namesMissingSchema(String message) {
        String text = message == null ? "" : message.toLowerCase(Locale.ROOT);
        return text.contains("no such table") || text.contains("no such column");
    }
}
