package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.ScratchRegistry.unreadable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registry paths that are not SQLite files, and waits that must end: a FIFO would block an open
 * forever, a device would get files created beside it, and a migration stopped half way must not
 * hang everyone behind it.
 */
class OddRegistryPathsTest {

    /** Only to detect a hang; a prompt answer takes milliseconds even on a loaded machine. */
    private static final Duration HANG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aFifoIsAnIoErrorForReadersAtOnceAndRefusedByWritersWithNothingCreated() throws Exception {
        Path fifo = dir.resolve("registry.sqlite3");
        mkfifo(fifo);

        RegistryRead read = assertTimeoutPreemptively(HANG, () -> new SqliteRegistryReader(fifo).readAll());
        assertEquals(RegistryReason.IO_ERROR, ((RegistryRead.Unreadable) read).reason());
        assertEquals("not a regular file", ((RegistryRead.Unreadable) read).detail());

        SqliteRegistryWriter writer = new SqliteRegistryWriter(fifo);
        RegistryStorageException refused = assertTimeoutPreemptively(HANG,
                () -> assertThrows(RegistryStorageException.class, () -> writer.register(registration(), Optional.empty())));
        assertTrue(refused.getMessage().contains("is not a regular file"), refused.getMessage());
        assertThrows(RegistryStorageException.class, writer::migrate);
        assertEquals(List.of(fifo), listing(dir), "no journal, lock or side file beside it");
        assertTrue(Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class).isOther(),
                "still the FIFO");
    }

    @Test
    void aDeviceAndADirectoryAreRefusedWithNothingCreatedBesideThem() throws Exception {
        Path devNull = Path.of("/dev/null");
        Assumptions.assumeTrue(Files.exists(devNull), "no /dev/null here");
        assertThrows(RegistryStorageException.class, () -> new SqliteRegistryWriter(devNull).migrate());
        assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(devNull).register(registration(), Optional.empty()));
        assertFalse(Files.exists(Path.of("/dev/null.migration-lock")));
        assertFalse(Files.exists(Path.of("/dev/null-journal")));
        assertEquals(RegistryReason.IO_ERROR, unreadable(new SqliteRegistryReader(devNull).readAll()).reason());

        Path directory = Files.createDirectory(dir.resolve("registry.d"));
        assertThrows(RegistryStorageException.class, () -> new SqliteRegistryWriter(directory).migrate());
        assertEquals(RegistryReason.IO_ERROR, unreadable(new SqliteRegistryReader(directory).readAll()).reason());
        assertEquals(List.of(directory), listing(dir));
    }

    @Test
    void aMigrationLockHeldByAnotherProcessIsWaitedForBoundedlyAndItsHolderNamed() throws Exception {
        Path registry = ScratchRegistry.in(dir);
        Process holder = new ProcessBuilder(javaCommand(LockHolderMain.class.getName(),
                MigrationLock.lockFile(registry).toString())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine(), "the holder took the lock");

            RegistryStorageException held = assertTimeoutPreemptively(HANG, () -> assertThrows(
                    RegistryStorageException.class, () -> MigrationLock.acquire(registry, Duration.ofMillis(500))));

            assertTrue(held.getMessage().contains("is still held by pid " + holder.pid()), held.getMessage());
            assertTrue(held.getMessage().contains(LockHolderMain.class.getSimpleName()), "its command line: " + held.getMessage());
        } finally {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        // Once the holder is gone, the lock is free again.
        try (MigrationLock lock = MigrationLock.acquire(registry, Duration.ofSeconds(30))) {
            assertEquals(ProcessHandle.current().pid() + "",
                    Files.readAllLines(MigrationLock.lockFile(registry)).get(0), "the holder writes its pid first");
        }
    }

    private static Registration registration() {
        return RowBuilder.registered(Roster.defaultRoster().members().get(0), 43001).at(Instant.now()).registration();
    }

    private static void mkfifo(Path path) throws IOException, InterruptedException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        Assumptions.assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo unavailable");
    }

    private static List<Path> listing(Path directory) throws IOException {
        try (var entries = Files.list(directory)) {
            return entries.sorted().toList();
        }
    }

    static List<String> javaCommand(String mainClass, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return command;
    }
}
