package dev.fleet.registry.sqlite;

import java.sql.Connection;

/**
 * The registry's one Liquibase changelog, for another engine's adapter (PostgreSQL): one migration
 * serves both, so the table, its columns and its indexes never drift apart. The caller serialises
 * migrations of one database (Liquibase's own lock is force-released first, as for SQLite).
 */
public final class SharedChangelog {

    /** The changelog's classpath resource. */
    public static final String RESOURCE = RegistrySchema.CHANGELOG;

    private SharedChangelog() {
    }

    /** Runs every change set not yet run on {@code connection}'s database. */
    public static void update(Connection connection) throws Exception {
        SchemaMigration.runChangelog(connection);
    }
}
