package dev.fleet.registry.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What SQLite itself says about a file, for the writer's "is it current?" check and the migration:
 * its journal mode, whether the registry's name is a view, and its {@code user_version}. It reads,
 * and {@link #pragma} also sets the journal mode for the migration: a pragma that writes answers a
 * query, which the rule keeping the assessment path from writing cannot tell from a read, so only the
 * writer and its migration use this class. Plain JDBC, like every statement of
 * this adapter: the check runs before every registration and heartbeat. (The assessment path does
 * not use it: the reader asks SQLite for the columns alone, through {@link RowQuery}.)
 */
final class SchemaCatalog {

    private SchemaCatalog() {
    }

    /** True when the file is in WAL mode, where writers never block readers. */
    static boolean isWal(Connection connection) throws SQLException {
        return "wal".equalsIgnoreCase(pragma(connection, "journal_mode"));
    }

    /**
     * True when {@code name} is a view in this file, which no migration can alter. Asked of the views
     * alone: a trigger may bear the same name, and its row may come first.
     */
    static boolean isView(Connection connection, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT 1 FROM sqlite_master WHERE type = 'view' AND lower(name) = lower(?)")) {
            query.setString(1, name);
            try (ResultSet view = query.executeQuery()) {
                return view.next();
            }
        }
    }

    /** {@code PRAGMA user_version}; 0 when SQLite gives nothing. */
    static int userVersion(Connection connection) throws SQLException {
        String value = pragma(connection, "user_version");
        return value == null ? 0 : Integer.parseInt(value);
    }

    /** A pragma's first value, as text. PRAGMA takes no bind values; every name here is a constant. */
    static String pragma(Connection connection, String pragma) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet value = statement.executeQuery("PRAGMA " + pragma)) {
            return value.next() ? value.getString(1) : null;
        }
    }
}
