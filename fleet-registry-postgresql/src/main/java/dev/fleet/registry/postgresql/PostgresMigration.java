package dev.fleet.registry.postgresql;

import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.registry.schema.RegistryChangelog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

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
            Optional<String> notATable = PostgresEngine.notATable(PostgresJooq.using(connection));
            if (notATable.isPresent()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: "
                        + PostgresEngine.TABLE + " is " + notATable.get() + ", not a table (another tool made it); "
                        + "nothing was changed", null);
            }
            Optional<String> elsewhere = present.isEmpty() ? PostgresEngine.elsewhere(PostgresJooq.using(connection))
                    : Optional.empty();
            if (elsewhere.isPresent()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: "
                        + PostgresEngine.movedBy(elsewhere.get()) + "; nothing was changed", null);
            }
            List<String> missing = RegistryColumn.missingRequired(present);
            if (!present.isEmpty() && !missing.isEmpty()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: table "
                        + PostgresEngine.TABLE + " lacks columns " + String.join(", ", missing)
                        + " (another tool made it); nothing was changed", null);
            }
            List<String> unwritable = PostgresEngine.unwritableColumns(PostgresJooq.using(connection));
            if (!unwritable.isEmpty()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: table "
                        + PostgresEngine.TABLE + " declares " + String.join(", ", unwritable) + ", which fleet's "
                        + "servers cannot write (a pid is an integer, every other column text; another tool made "
                        + "it); nothing was changed", null);
            }
            // Liquibase keeps its tables, and makes the registry's, in the registry's schema, named in every statement.
            Optional<String> foreign = RegistryChangelog.foreignBookkeeping(connection, PostgresJooq.SCHEMA);
            if (foreign.isPresent()) {
                throw new RegistryStorageException("registry " + location.display() + " cannot be migrated: "
                        + foreign.get() + " (another tool made it); nothing was changed", null);
            }
            if (always || !current(present)) {
                try {
                    // Liquibase sets the search path to its schema followed by the one it finds, where they differ
                    // (its DatabaseUtils.initializeDatabase): public, pg_catalog would let a function or operator of
                    // another role's in public win over PostgreSQL's own even for an exact match (its NOW(), say).
                    // Found as the schema alone, it is left alone, and pg_catalog is searched first, implicitly.
                    query(connection, "SET search_path = " + PostgresJooq.SCHEMA);
                    RegistryChangelog.update(connection, PostgresJooq.SCHEMA);
                } finally {
                    query(connection, "RESET search_path"); // back to the session's pg_catalog alone for fleet's own
                }
                addOwnColumnsStillMissing(connection);
            }
        } finally {
            connection.setAutoCommit(true);
            query(connection, "SELECT pg_advisory_unlock(" + LOCK_KEY + ")");
            // Back to the session's own lock wait: a registration that follows on this connection must not wait
            // the migration's 20 s at each of its attempts.
            query(connection, "RESET lock_timeout");
        }
    }

    /**
     * The changelog adds this project's columns once per database; a table whose columns someone dropped since (or
     * re-created) lacks them again, and Liquibase would not run those change sets twice. Additive and idempotent,
     * as the changelog adds them (names unquoted, its types). DDL takes no bind values: the parts are constants.
     */
    private static void addOwnColumnsStillMissing(Connection connection) {
        Set<String> present = PostgresEngine.columnsOf(connection);
        DSLContext ctx = PostgresJooq.using(connection);
        for (RegistryColumn column : RegistryColumn.ALL) {
            if (column.isOwn() && !present.contains(column.sqlName())) {
                ctx.query("ALTER TABLE {0} ADD COLUMN IF NOT EXISTS {1} {2}",
                        DSL.unquotedName(PostgresJooq.SCHEMA, PostgresEngine.TABLE), DSL.unquotedName(column.sqlName()),
                        DSL.keyword(column.sqlType())).execute();
            }
        }
    }

    private static boolean current(Set<String> present) {
        return RegistryColumn.ALL.stream().allMatch(column -> present.contains(column.sqlName()));
    }

    /** A statement whose result is not needed, run as a query (the read side's rule: no execute()). */
    private static void query(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (sql.startsWith("SET") || sql.startsWith("RESET")) {
                statement.executeUpdate();
                return;
            }
            try (ResultSet ignored = statement.executeQuery()) {
                // the lock is held (or released) once the query has answered
            }
        }
    }
}
