package dev.fleet.cli;

import dev.fleet.registry.postgresql.LocalPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real PostgreSQL ({@link LocalPostgres}) for a test class, started before its first test and
 * stopped after its last: {@code @RegisterExtension static final PostgresPerClass POSTGRES = new
 * PostgresPerClass();}. Each test makes a database of its own, which is its registry.
 */
final class PostgresPerClass implements BeforeAllCallback, AfterAllCallback {

    private LocalPostgres postgres;

    @Override
    public void beforeAll(ExtensionContext context) {
        postgres = LocalPostgres.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** A new database {@code name}, as a registry URL ({@code postgresql://fleet@127.0.0.1:PORT/name}). */
    String createDatabase(String name) {
        return postgres.createDatabase(name);
    }

    /** A connection to {@code database}, for what a test writes or checks behind the CLI's back. */
    Connection connect(String database) throws SQLException {
        return postgres.connect(database);
    }
}
