package dev.fleet.registry.postgresql;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link LocalPostgres} for one test class, started before its first test and stopped after its last:
 * {@code @RegisterExtension static final LocalPostgresServer SERVER = new LocalPostgresServer();}.
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

    /** The running server. */
    public LocalPostgres postgres() {
        if (postgres == null) {
            throw new IllegalStateException("the PostgreSQL server runs only while its test class does");
        }
        return postgres;
    }
}
