package dev.fleet.registry.sqlite;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One IMMEDIATE transaction on a fresh connection in auto-commit mode (the data source's
 * {@code transaction_mode=IMMEDIATE} makes {@code setAutoCommit(false)} a {@code BEGIN IMMEDIATE},
 * which waits up to the busy timeout for other writers instead of failing later on upgrade).
 *
 * <p>Not {@link Connection#commit()}: after it sqlite-jdbc at once begins the next IMMEDIATE
 * transaction, taking the write lock a second time for nothing (and failing a commit that already
 * happened if it cannot). Switching auto-commit back on commits and stops there, as JDBC specifies.
 */
final class ImmediateTransaction {

    /** What runs inside the transaction, on its connection. */
    @FunctionalInterface
    interface Work<T> {
        T apply(Connection connection) throws SQLException;
    }

    private ImmediateTransaction() {
    }

    /**
     * Runs {@code work} and commits. When it throws, nothing is committed: the caller closes the
     * connection (every caller opens one per transaction), and SQLite rolls back an open transaction
     * on close without taking the write lock again as {@link Connection#rollback()} would.
     */
    static <T> T run(Connection connection, Work<T> work) throws SQLException {
        if (!connection.getAutoCommit()) {
            throw new IllegalStateException("an immediate transaction needs a connection in auto-commit mode");
        }
        connection.setAutoCommit(false);
        T result = work.apply(connection);
        connection.setAutoCommit(true);
        return result;
    }
}
