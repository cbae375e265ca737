package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryWrites;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * What a registration does inside the writer's IMMEDIATE transaction on one file: the registry's
 * shared registration ({@link RegistryWrites#register}: replace-on-pid, optional retention,
 * update-then-insert, read-back) on this connection, with SQLite's catalog and typing
 * ({@link SqliteEngine}). The transaction, its retries and the wording of a failure are the writer's.
 */
final class RegistrationTransaction {

    /** How many expired rows one DELETE names ({@link RegistryWrites#PRUNE_CHUNK}): SQLite's bound sets it. */
    static final int PRUNE_CHUNK = RegistryWrites.PRUNE_CHUNK;

    private RegistrationTransaction() {
    }

    /** Stores {@code row}, first dropping rows old on both timestamps before {@code pruneBefore}; the row read back. */
    static RegistryRow store(Connection connection, RegistryRow row, Optional<Instant> pruneBefore)
            throws SQLException {
        return RegistryWrites.register(SqliteJooq.using(connection), SqliteEngine.INSTANCE, row, pruneBefore);
    }
}
