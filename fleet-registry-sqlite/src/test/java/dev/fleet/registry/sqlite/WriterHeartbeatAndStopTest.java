package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The writes of a running server after its registration: a heartbeat moves only last_heartbeat_at, a
 * stop sets status and stopped_at and waits for a busy registry only briefly, and neither writes a
 * row (or a registry) that is not there.
 */
class WriterHeartbeatAndStopTest extends RegistryWriterFixture {

    @Test
    void heartbeatAdvancesOnlyLastHeartbeatAt() {
        Registration registration = RowBuilder.registered(AUTHOR, 41800).registration();
        writer.register(registration, Optional.empty());
        Instant beat = RowBuilder.REGISTERED.plusSeconds(90);

        assertTrue(writer.heartbeat(registration.runtimeId(), beat));

        assertEquals(List.of(registration.withLastHeartbeatAt(beat).toRow()), reader.readAll().rows());
    }

    @Test
    void aHeartbeatForAnUnknownRuntimeChangesNothingAndSaysSo() throws Exception {
        writer.register(RowBuilder.registered(AUTHOR, 41900).registration(), Optional.empty());
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);

        assertFalse(writer.heartbeat("does-not-exist", NOW));

        assertEquals(before, RawSqlite.dump(file));
    }

    @Test
    void markStoppedSetsStatusAndStoppedAt() throws Exception {
        Registration registration = RowBuilder.registered(AUTHOR, 42000).registration();
        writer.register(registration, Optional.empty());
        Instant stoppedAt = RowBuilder.REGISTERED.plusSeconds(600);

        assertTrue(writer.markStopped(registration.runtimeId(), stoppedAt));

        assertEquals(List.of(registration.withStatus(RegistrationStatus.STOPPED, stoppedAt).toRow()),
                reader.readAll().rows());
        assertEquals(List.of(List.of("stopped", Timestamps.format(stoppedAt))),
                RawSqlite.query(file, "SELECT status, stopped_at FROM mcp_server_runtimes"));
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);
        assertFalse(writer.markStopped("does-not-exist", stoppedAt));
        assertEquals(before, RawSqlite.dump(file));
    }

    @Test
    void aStopOnATableWithoutRuntimeIdFailsNamingItAndTouchesNoRow() throws Exception {
        // Another tool's table, lacking the column a stop names its row by. Unqualified, SQLite would
        // read "runtime_id" as the text of that name: a server with that id would stop every row.
        RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (pid INTEGER, status TEXT, stopped_at TEXT)",
                "INSERT INTO mcp_server_runtimes VALUES (42100, 'running', NULL)");
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> writer.markStopped("runtime_id", NOW));

        assertTrue(refused.getMessage().contains("no such column"), refused.getMessage());
        assertEquals(before, RawSqlite.dump(file));
    }

    @Test
    void aStopWaitsForABusyRegistryOnlyBrieflyWhateverTheRegistrationTimeout() throws Exception {
        // The contract 7: a server is gone within 2 s of losing its client, so a stop cannot queue for long
        // behind another writer, even on a writer configured to wait 30 s to register.
        SqliteRegistryWriter patient = new SqliteRegistryWriter(file, () -> NOW, Duration.ofSeconds(30));
        Registration registration = RowBuilder.registered(AUTHOR, 42300).registration();
        patient.register(registration, Optional.empty());
        try (java.sql.Connection holder = RawSqlite.open(file);
                java.sql.Statement statement = holder.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("UPDATE mcp_server_runtimes SET last_heartbeat_at = last_heartbeat_at");

            RegistryStorageException busy = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(10), () -> assertThrows(RegistryStorageException.class,
                            () -> patient.markStopped(registration.runtimeId(), NOW)));
            assertTrue(busy.getMessage().contains("mark stopped"), busy.getMessage());
            statement.execute("ROLLBACK");
        }
        assertTrue(patient.markStopped(registration.runtimeId(), NOW), "and it succeeds once the lock is gone");
    }

    @Test
    void neitherHeartbeatNorStopBringsADeletedRegistryBack() {
        Path gone = dir.resolve("removed/control_plane.sqlite3");
        SqliteRegistryWriter orphan = new SqliteRegistryWriter(gone, () -> NOW, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);

        assertFalse(orphan.heartbeat("rt-any", NOW));
        assertFalse(orphan.markStopped("rt-any", NOW));

        assertFalse(java.nio.file.Files.exists(gone.getParent()), "nothing was created");
    }
}
