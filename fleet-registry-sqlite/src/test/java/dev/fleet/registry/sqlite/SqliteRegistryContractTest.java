package dev.fleet.registry.sqlite;

import dev.fleet.registry.schema.RegistryContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;

/** The registry contract on SQLite: a fresh file per test. */
class SqliteRegistryContractTest extends RegistryContract<Path> {

    @TempDir
    Path dir;

    SqliteRegistryContractTest() {
        super(SqliteRegistryWriter::new, SqliteRegistryReader::new);
    }

    @Override
    protected Path freshRegistry() {
        return dir.resolve("control_plane.sqlite3");
    }

    @Override
    protected Connection connect(Path file) throws SQLException {
        return RawSqlite.open(file);
    }
}
