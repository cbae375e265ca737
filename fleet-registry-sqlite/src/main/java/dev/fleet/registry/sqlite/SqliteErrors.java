package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * What a failure the driver raised means for the registry, reading or writing: locked, corrupt,
 * missing, without the schema, or an I/O error. The writer retries what this calls locked.
 */
final class SqliteErrors {

    private SqliteErrors() {
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

    /** The primary result code of the SQLite error in {@code failure}'s causes; -1 when there is none. */
    static int primaryCode(Throwable failure) {
        SQLiteException sqlite = sqliteCause(failure);
        return sqlite == null ? -1 : primaryCode(sqlite);
    }

    /**
     * SQLite's own result code (extended, as {@code SQLITE_READONLY_ROLLBACK}) of the error in
     * {@code failure}'s causes; null when there is none or the driver did not name it.
     */
    static SQLiteErrorCode resultCode(Throwable failure) {
        SQLiteException sqlite = sqliteCause(failure);
        SQLiteErrorCode code = sqlite == null ? null : sqlite.getResultCode();
        return code == null || code == SQLiteErrorCode.UNKNOWN_ERROR ? null : code;
    }

    /** Whether SQLite found a virtual table whose module it does not have. */
    static boolean namesUnknownModule(Throwable failure) {
        SQLiteException sqlite = sqliteCause(failure);
        String text = sqlite == null || sqlite.getMessage() == null ? "" : sqlite.getMessage().toLowerCase(Locale.ROOT);
        return text.contains("no such module");
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
