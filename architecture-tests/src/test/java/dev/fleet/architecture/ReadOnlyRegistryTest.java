package dev.fleet.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promise 5: the registry's read side opens its connections read-only at the driver level. The
 * check takes every data source an object holds and tries to write through it; it must fail.
 */
class ReadOnlyRegistryTest {

    @TempDir
    Path dir;

    /** Each data source field of {@code component}, and whether a write through it succeeded. */
    static Map<String, Boolean> writesThroughDataSources(Object component) throws Exception {
        Map<String, Boolean> writable = new TreeMap<>();
        for (Field field : component.getClass().getDeclaredFields()) {
            if (DataSource.class.isAssignableFrom(field.getType())) {
                field.setAccessible(true);
                try (Connection connection = ((DataSource) field.get(component)).getConnection();
                        Statement statement = connection.createStatement()) {
                    statement.execute("CREATE TABLE probe_" + field.getName() + " (x INTEGER)");
                    writable.put(field.getName(), true);
                } catch (SQLException refused) {
                    writable.put(field.getName(), false);
                    assertTrue(refused.getMessage().contains("READONLY") || refused.getMessage().contains("readonly"),
                            refused.getMessage());
                }
            }
        }
        return writable;
    }

    @Test
    void theReadSideCannotWriteThroughItsDataSource() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        new SqliteRegistryWriter(registry).migrate();
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);

        assertEquals(Map.of("dataSource", false), writesThroughDataSources(reader));
        assertTrue(reader.readAll().readable(), "the probe found the reader's data source and it reads");
    }

    @Test
    void theCheckReportsADataSourceThatCanWrite() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        writer.migrate();

        // The writer's own field (its stop connections live inside a write policy, not probed here).
        assertEquals(Map.of("dataSource", true), writesThroughDataSources(writer));
    }
}
