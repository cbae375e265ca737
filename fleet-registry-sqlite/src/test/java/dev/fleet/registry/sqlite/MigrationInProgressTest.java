package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fifty servers starting together on two cores can keep one first migration going for longer than a
 * registration's own deadline, holding the file's lock all along. A registration must wait for that
 * migration (within the migration lock's own bound) rather than spend its deadline retrying around
 * it, and must then find the file migrated or migrate it itself.
 */
class MigrationInProgressTest {

    private static final Duration HANG = Duration.ofSeconds(110);
    /** Far shorter than the migration below: an attempt that counts that time against it gives up. */
    private static final Duration SHORT_DEADLINE = Duration.ofMillis(300);
    /**
     * Longer than {@code registry migrate} waits for another's migration: a server waits longer
     * (it keeps serving meanwhile), so that a first migration starved by fifty JVMs starting on
     * two cores does not make every other server give up.
     */
    private static final long MIGRATION_MILLIS = MigrationLock.DEFAULT_WAIT.toMillis() + 2_000;
    private static final Registration AUTHOR = RowBuilder.registered(Roster.defaultRoster().members().get(0), 44001)
            .at(Instant.now()).registration();

    @TempDir
    Path dir;

    @Test
    void aRegistrationWaitsForAnotherProcesssMigrationLongerThanItsOwnDeadline() throws Exception {
        Process migrator = startMigration(MIGRATION_MILLIS);
        try {
            SqliteRegistryWriter writer = new SqliteRegistryWriter(registry(), Instant::now, Duration.ofMillis(50),
                    SHORT_DEADLINE);

            Registration stored = assertTimeoutPreemptively(HANG, () -> writer.register(AUTHOR, Optional.empty()));

            assertEquals(AUTHOR.runtimeId(), stored.runtimeId());
            assertEquals(RegistrationStatus.RUNNING, stored.tenure().status());
        } finally {
            migrator.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A stop must let its server exit within 2 s: it gives up on the busy file, never waits for the migration. */
    @Test
    void aStopNeverWaitsForAMigration() throws Exception {
        new SqliteRegistryWriter(registry()).register(AUTHOR, Optional.empty());
        Process migrator = startMigration(Long.MAX_VALUE);
        try {
            SqliteRegistryWriter writer = new SqliteRegistryWriter(registry(), Instant::now, Duration.ofMillis(50),
                    SHORT_DEADLINE);

            RegistryStorageException gaveUp = assertTimeoutPreemptively(HANG, () -> assertThrows(
                    RegistryStorageException.class, () -> writer.markStopped(AUTHOR.runtimeId(), Instant.now())));

            assertTrue(gaveUp.getMessage().contains("mark stopped failed") && gaveUp.getMessage().contains("busy through"),
                    "gave up on the busy file itself: " + gaveUp.getMessage());
            assertLockedInFleetsWords(gaveUp);
        } finally {
            migrator.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A migration that meets the file locked by another tool (not a migration of fleet's: the migration lock
     * is free) past its busy timeout fails in fleet's words; SQLite's "database is locked" never surfaces.
     */
    @Test
    void aMigrationBehindAnotherToolsLockSaysSoInItsOwnWords() throws Exception {
        new SqliteRegistryWriter(registry()).register(AUTHOR, Optional.empty());
        Process holder = startHolder(dir.resolve("another-tools.lock"), Long.MAX_VALUE);
        try {
            SqliteRegistryWriter writer = new SqliteRegistryWriter(registry(), Instant::now, Duration.ofMillis(50),
                    SHORT_DEADLINE);

            RegistryStorageException failed = assertTimeoutPreemptively(HANG, () -> assertThrows(
                    RegistryStorageException.class, writer::migrate));

            assertTrue(failed.getMessage().startsWith("registry migrate failed for " + registry()), failed.getMessage());
            assertLockedInFleetsWords(failed);
        } finally {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void assertLockedInFleetsWords(RegistryStorageException failure) {
        String message = failure.getMessage();
        assertTrue(message.contains("another process held it locked for longer than fleet waits; nothing was changed"),
                message);
        assertTrue(!message.contains("database is locked") && !message.contains("SQLITE_BUSY"), message);
    }

    private Path registry() {
        return dir.resolve("control_plane.sqlite3");
    }

    /** Another process that holds the migration lock and the registry's exclusive lock for {@code millis}. */
    private Process startMigration(long millis) throws Exception {
        return startHolder(MigrationLock.lockFile(registry()), millis);
    }

    /** Another process that holds the OS lock of {@code lockFile} and the registry's exclusive lock for {@code millis}. */
    private Process startHolder(Path lockFile, long millis) throws Exception {
        Process migrator = new ProcessBuilder(OddRegistryPathsTest.javaCommand(LockHolderMain.class.getName(),
                lockFile.toString(), registry().toString(), String.valueOf(millis)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(migrator.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", out.readLine(), "the other process holds the migration lock and the file");
        return migrator;
    }
}
