package dev.fleet.registry.postgresql;

import dev.fleet.registry.schema.RegistryContract;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The registry contract on a real PostgreSQL server started by the test: a fresh database per test. */
class PostgresRegistryContractTest extends RegistryContract<PostgresLocation> {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    PostgresRegistryContractTest() {
        super(PostgresRegistryWriter::new, PostgresRegistryReader::new);
    }

    @Override
    protected PostgresLocation freshRegistry() {
        return PostgresLocation.parse(SERVER.createDatabase("contract_" + DATABASES.incrementAndGet()));
    }

    @Override
    protected Connection connect(PostgresLocation location) throws SQLException {
        return SERVER.connect(location.database());
    }
}
