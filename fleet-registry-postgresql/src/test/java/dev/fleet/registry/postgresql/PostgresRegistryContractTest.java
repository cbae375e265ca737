package dev.fleet.registry.postgresql;

import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.RegistryReader;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistryContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The registry contract on a real PostgreSQL server started by the test: a fresh database per test. */
class PostgresRegistryContractTest extends RegistryContract {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();
    private String database;
    private PostgresLocation location;

    @BeforeEach
    void freshDatabase() {
        database = "contract_" + DATABASES.incrementAndGet();
        location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
    }

    @Override
    protected RegistryWriter writer() {
        return new PostgresRegistryWriter(location);
    }

    @Override
    protected RegistryReader reader() {
        return new PostgresRegistryReader(location);
    }

    @Override
    protected void age(String runtimeId, Instant registeredAt, Instant lastHeartbeatAt) throws Exception {
        try (Connection connection = SERVER.postgres().connect(database);
                PreparedStatement update = connection.prepareStatement("UPDATE mcp_server_runtimes SET registered_at = ?, "
                        + "last_heartbeat_at = ? WHERE runtime_id = ?")) {
            update.setString(1, Timestamps.format(registeredAt));
            update.setString(2, Timestamps.format(lastHeartbeatAt));
            update.setString(3, runtimeId);
            update.executeUpdate();
        }
    }
}
