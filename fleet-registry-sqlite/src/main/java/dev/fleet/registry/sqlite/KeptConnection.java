package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * A reader's one connection, kept from one read to the next: a watch reads every second, and
 * opening the file with its pragmas cost a third of each look (docs/PERFORMANCE.md, "Watching a
 * fleet"). It is used only while the path still names the file it was opened on, the same device
 * and inode, and that file is still readable to this process: a file swapped under it (by a rename,
 * a copy, a FIFO) or made unreadable is opened afresh, as every read did before, and so reports
 * what is at the path now. One read at a time uses it; a read that finds it in use opens its own
 * connection and closes it after. A read that fails drops it.
 *
 * <p>Between reads the connection holds no lock and no transaction: every statement and result is
 * closed by the read that made it, so a writer never waits for a kept connection.
 */
final class KeptConnection {

    /** One read on a connection. */
    @FunctionalInterface
    interface Read<T> {
        T on(Connection connection) throws Exception;
    }

    private final DataSource dataSource;
    private final ReentrantLock lock = new ReentrantLock();
    private Connection connection;
    private Object openedOn;

    KeptConnection(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Runs {@code read} on the kept connection when it is free and still belongs to the file at
     * {@code file}, else on a fresh one that is kept in its place (or, when another read holds the
     * kept one, closed after).
     */
    <T> T read(Path file, Read<T> read) throws Exception {
        Object identity = identityOf(file);
        if (!lock.tryLock()) {
            try (Connection fresh = dataSource.getConnection()) {
                return read.on(fresh);
            }
        }
        try {
            if (connection != null && (identity == null || !identity.equals(openedOn))) {
                drop();
            }
            if (identity == null) {
                try (Connection fresh = dataSource.getConnection()) {
                    return read.on(fresh);
                }
            }
            if (connection == null) {
                connection = dataSource.getConnection();
                openedOn = identity;
            }
            try {
                return read.on(connection);
            } catch (Exception | Error e) {
                drop();
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The file's device and inode while it is readable to this process, else null: such a file is
     * never read through a descriptor opened earlier, which would still read it.
     */
    private static Object identityOf(Path file) {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key != null && Files.isReadable(file) ? key : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private void drop() {
        Connection dropped = connection;
        connection = null;
        openedOn = null;
        if (dropped != null) {
            try {
                dropped.close();
            } catch (SQLException e) {
                // Nothing to keep: the next read opens the file afresh.
            }
        }
    }
}
