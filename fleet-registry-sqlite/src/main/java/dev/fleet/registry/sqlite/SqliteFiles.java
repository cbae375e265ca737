package dev.fleet.registry.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/** How the registry file is opened: one recipe for writers, one for readers. */
final class SqliteFiles {

    static {
        // Before any data source exists, so before the driver loads its native library: without this
        // it runs `uname` and extracts a fresh copy into the temp folder in every JVM.
        SqliteNativeLibraryCache.configureDriver();
    }

    private SqliteFiles() {
    }

    /**
     * Writers: a busy timeout so concurrent writers queue instead of failing, and IMMEDIATE
     * transactions: a DEFERRED one that upgrades from read to write fails at once with SQLITE_BUSY,
     * whatever the busy timeout. WAL (readers never wait for writers) is not asked for here, on
     * every open, but set once by the migration: see {@link SchemaMigration}.
     */
    static SQLiteDataSource writer(Path file, Duration busyTimeout) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(millis(busyTimeout));
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        return dataSource(file, config);
    }

    /**
     * Readers: read-only at the driver level and without CREATE, so a missing file stays missing and
     * an existing one cannot be written through this connection. No journal-mode pragma either:
     * that would be a write.
     */
    static SQLiteDataSource readOnly(Path file, Duration busyTimeout) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        // setReadOnly already drops CREATE in this driver version; said again because it is the point.
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        config.setBusyTimeout(millis(busyTimeout));
        // A sort or a temporary b-tree (a foreign view's ORDER BY, DISTINCT) stays in memory, bounded
        // by ReadBounds' heap limit and deadline: an assessment writes no temporary file.
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return dataSource(file, config);
    }

    /**
     * A database in memory, which touches no file: opening it loads the driver and its native library,
     * and it lets jOOQ run its first queries before a read's clock starts ({@link SqliteRows#ready}).
     */
    static Connection inMemory() throws SQLException {
        SQLiteDataSource memory = new SQLiteDataSource(new SQLiteConfig());
        memory.setUrl("jdbc:sqlite::memory:");
        return memory.getConnection();
    }

    private static SQLiteDataSource dataSource(Path file, SQLiteConfig config) {
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        return dataSource;
    }

    private static int millis(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("busy timeout must not be negative, got " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }
}
