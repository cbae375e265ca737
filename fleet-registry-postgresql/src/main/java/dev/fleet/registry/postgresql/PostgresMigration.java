package dev.fleet.registry.postgresql;

import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.registry.schema.RegistryChangelog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * The shared Liquibase changelog on PostgreSQL, safe when many servers start together: Liquibase's
 * own lock table is itself created by the first migration, which two servers could both try at once,
 * so every migration first takes a session-level advisory lock (released on unlock or disconnect,
 * never left behind by a server that died), waiting at most {@link #LOCK_WAIT_MILLIS}.
 */
final class PostgresMigration {

    /** Any constant both engines' writers agree on: "fleet" in ASCII. */
    private static final long LOCK_KEY = 0x666c656574L;
    private static final int LOCK_WAIT_MILLIS = 20_000;

    private PostgresMigration() {
    }

    /** Migrates unless the table already has every column this project knows (the common case: one query). */
    static void migrateIfNeeded(Connection connection, PostgresLocation location) throws Exception {
        if (!current(PostgresEngine.columnsOf(connection))) {
            migrate(connection, false, location);
        }
    }

    /**
     * @param always false to skip the changelog when another server migrated meanwhile (seen under the lock)
     * @param location the registry, as an error names it
     */
    static void migrate(Connection connection, boolean always, PostgresLocation location) throws Exception {
        connection.setAutoCommit(true);
        query(connection, "SET lock_timeout = " + LOCK_WAIT_MILLIS);
        query(connection, "SELECT pg_advisory_lock(" + LOCK_KEY + ")");
        try {
            Set<String> present = PostgresEngine.columnsOf(connection);
            List<String> missing = RegistryColumn.missingRequired(present);
            if (!present.isEmpty() && !missing.isEmpty()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: table "
                        + PostgresEngine.TABLE + " lacks columns " + String.join(", ", missing)
                        + " (another tool made it); nothing was changed", null);
            }
            if (always || !current(present)) {
                RegistryChangelog.update(connection);
            }
        } finally {
            connection.setAutoCommit(true);
            query(connection, "SELECT pg_advisory_unlock(" + LOCK_KEY + ")");
        }
    }

    private static boolean current(Set<String> present) {
        return RegistryColumn.ALL.stream().allMatch(column -> present.contains(column.sqlName()));
    }

    /** A statement whose result is not needed, run as a query (the read side's rule: no execute()). */
    private static void query(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (sql.startsWith("SET")) {
                statement.executeUpdate();
                return;
            }
            try (ResultSet ignored = statement.executeQuery()) {
                // the lock is held (or released) once the query has answered
            }
        }
    }
}
