package dev.fleet.registry.postgresql;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link LocalPostgres} for one test class, started before its first test and stopped after its last:
 * {@code @RegisterExtension static final LocalPostgresServer SERVER = new LocalPostgresServer();}. Each test
 * makes a database of its own ({@link #createDatabase}), which is its registry.
 */
public final class LocalPostgresServer implements BeforeAllCallback, AfterAllCallback {

    private LocalPostgres postgres;

    @Override
    public void beforeAll(ExtensionContext context) {
        postgres = LocalPostgres.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    /** A new database {@code name} on the running server, as a registry URL ({@code postgresql://fleet@127.0.0.1:PORT/name}). */
    public String createDatabase(String name) {
        return postgres().createDatabase(name);
    }

    /** A connection to {@code database}, for what a test writes or checks behind the code under test. */
    public Connection connect(String database) throws SQLException {
        return postgres().connect(database);
    }

    /** The running server. */
    public LocalPostgres postgres() {
        if (postgres == null) {
            throw new IllegalStateException("the PostgreSQL server runs only while its test class does");
        }
        return postgres;
    }
}
