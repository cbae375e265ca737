package dev.fleet.registry.sqlite;

import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.RegistryReader;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistryContract;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The registry contract on SQLite: a fresh file per test. */
class SqliteRegistryContractTest extends RegistryContract {

    @TempDir
    Path dir;
    private Path file;

    @BeforeEach
    void freshFile() {
        file = dir.resolve("control_plane.sqlite3");
    }

    @Override
    protected RegistryWriter writer() {
        return new SqliteRegistryWriter(file);
    }

    @Override
    protected RegistryReader reader() {
        return new SqliteRegistryReader(file);
    }

    @Override
    protected void age(String runtimeId, Instant registeredAt, Instant lastHeartbeatAt) throws Exception {
        RawSqlite.execute(file, "UPDATE mcp_server_runtimes SET registered_at = '" + Timestamps.format(registeredAt)
                + "', last_heartbeat_at = '" + Timestamps.format(lastHeartbeatAt) + "' WHERE runtime_id = '"
                + runtimeId + "'");
    }
}
