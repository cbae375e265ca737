package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.ScratchRegistry.unreadable;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A reader that reads again and again (a watch, every second) reads the file at the path now, and
 * between reads holds nothing another tool could wait for, not even the file open.
 */
class ReaderSeesThePathNowTest extends RegistryFileTest {

    private static final RosterMember AUTHOR = Roster.defaultRoster().members().get(0);

    @Test
    void aFileSwappedBetweenReadsIsReadAfresh() throws Exception {
        register(writer, "rt-before");
        assertEquals(List.of("rt-before"), runtimeIds(reader.readAll()));

        Path other = dir.resolve("other").resolve("control_plane.sqlite3");
        Files.createDirectories(other.getParent());
        register(new SqliteRegistryWriter(other), "rt-swapped-in");
        Files.move(other, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertEquals(List.of("rt-swapped-in"), runtimeIds(reader.readAll()));
    }

    @Test
    void aFileRemovedBetweenReadsReadsMissing() throws Exception {
        register(writer, "rt-gone");
        assertEquals(List.of("rt-gone"), runtimeIds(reader.readAll()));
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(file + suffix));
        }

        assertEquals(RegistryReason.MISSING, unreadable(reader.readAll()).reason());
    }

    @Test
    void aTableMadeAfterAnEarlierReadIsSeenByTheNextOne() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("CREATE TABLE unrelated (x INTEGER)");
        }
        assertEquals(RegistryReason.SCHEMA_MISSING, unreadable(reader.readAll()).reason());

        register(writer, "rt-after-migration");

        assertEquals(List.of("rt-after-migration"), runtimeIds(reader.readAll()));
    }

    @Test
    void betweenReadsTheReaderLeavesTheFileToAToolThatWantsItExclusively() throws Exception {
        register(writer, "rt-1");
        assertEquals(List.of("rt-1"), runtimeIds(reader.readAll()));

        // No busy timeout: a connection the reader kept open (it would hold its share of the WAL
        // index) or a lock it still held would fail this at once with SQLITE_BUSY.
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("PRAGMA busy_timeout = 0");
            statement.execute("PRAGMA locking_mode = EXCLUSIVE");
            statement.executeUpdate("BEGIN EXCLUSIVE");
            statement.executeUpdate("DELETE FROM " + SqliteRows.TABLE);
            statement.executeUpdate("COMMIT");
        }

        assertEquals(List.of(), runtimeIds(reader.readAll()));
    }

    private static void register(SqliteRegistryWriter to, String runtimeId) {
        to.register(RowBuilder.registered(AUTHOR, 45000).with(r -> r.runtimeId = runtimeId).registration(),
                Optional.empty());
    }

    private static List<String> runtimeIds(RegistryRead read) {
        return read.rows().stream().map(RegistryRow::runtimeId).toList();
    }
}
