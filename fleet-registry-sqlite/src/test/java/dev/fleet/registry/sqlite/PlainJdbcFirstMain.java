package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRead;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Another user of the driver in the same JVM that opens a connection before the registry does, the
 * way a test's plain JDBC does: the driver loads its own copy of the native library first. Then the
 * registry reads the same file. Exit 0 when both worked.
 */
public final class PlainJdbcFirstMain {

    private PlainJdbcFirstMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile("plain-jdbc-first", ".sqlite3");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, pid INTEGER)");
        }
        var read = new SqliteRegistryReader(file).readAll();
        Files.deleteIfExists(file);
        System.exit("SCHEMA_MISSING".equals(String.valueOf(((RegistryRead.Unreadable) read).reason())) ? 0 : 3);
    }
}
