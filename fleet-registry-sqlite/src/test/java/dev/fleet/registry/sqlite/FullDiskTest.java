package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry on a full file system: the failure says so. SQLite's own line may name another error (the
 * commit that found its transaction rolled back by SQLITE_FULL: "cannot commit - no transaction is
 * active"), which sent an operator looking everywhere but at the disk. On a real tmpfs of 40 KiB,
 * mounted for the test (skipped where mounting is not allowed).
 */
class FullDiskTest {

    @TempDir
    Path dir;

    private Path mounted;

    @AfterEach
    void unmount() throws Exception {
        if (mounted != null) {
            run("umount", "-l", mounted.toString());
        }
    }

    @Test
    void aMigrationOnAFullFileSystemSaysTheDiskIsFull() throws Exception {
        Path small = Files.createDirectory(dir.resolve("small"));
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=40k", "tmpfs", small.toString()) == 0,
                "mounting a tmpfs is not allowed here (not root)");
        mounted = small;

        RegistryStorageException failed = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(small.resolve("registry.sqlite3")).migrate());

        assertTrue(failed.getMessage().contains("the file system holding it is full"), failed.getMessage());
        assertTrue(failed.getMessage().lines().count() == 1, failed.getMessage());
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(60, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
