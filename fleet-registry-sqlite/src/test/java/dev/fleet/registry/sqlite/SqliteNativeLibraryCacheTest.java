package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.NativeCacheFiles.assertNoNameTheDriverWouldCleanUp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver configured to load the per-user copy of sqlite-jdbc's native library: pointed at the copy
 * only once it has loaded, the user's own settings kept, a private copy where the cache cannot be
 * written, and the driver's own way, with the reason, where no copy can serve. Whether a real
 * {@code fleet} starts a process or leaves files in the temp folder is proved on the packaged jar (the
 * CLI's {@code NativeLibraryIT}); here, without loading anything into this JVM. The platform, the cache
 * folder and the copy are tested in {@link SqlitePlatformTest}, {@link NativeCacheFolderTest} and
 * {@link NativeLibraryCopiesTest}.
 */
class SqliteNativeLibraryCacheTest {

    @TempDir
    Path dir;

    @Test
    void theDriverIsPointedAtTheCopyOnlyOnceItHasLoaded() {
        Properties properties = thisPlatform();
        List<Path> loaded = new ArrayList<>();
        Path root = dir.resolve("xdg/fleet/sqlite-jdbc");

        Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", dir.resolve("xdg").toString()), getClass().getClassLoader(), loaded::add);

        assertEquals(Optional.empty(), fallback);
        assertEquals(1, loaded.size());
        Path library = loaded.get(0);
        assertTrue(library.startsWith(root), library.toString());
        assertEquals(library.getParent().toString(), properties.getProperty(SqliteNativeLibraryCache.LIB_PATH));
        assertEquals(library.getFileName().toString(), properties.getProperty(SqliteNativeLibraryCache.LIB_NAME));
        assertEquals(root.toString(), properties.getProperty(SqliteNativeLibraryCache.TMPDIR),
                "the driver's cleanup lists the cache, never the shared temp folder");
        assertNoNameTheDriverWouldCleanUp(root);
    }

    @Test
    void aLibraryPathOrNameOfTheUsersOwnTurnsTheCacheOff() {
        for (String setting : List.of(SqliteNativeLibraryCache.LIB_PATH, SqliteNativeLibraryCache.LIB_NAME)) {
            Properties properties = thisPlatform();
            properties.setProperty(setting, "/the/users/own");
            Properties before = (Properties) properties.clone();

            Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                    Map.of("XDG_CACHE_HOME", dir.toString()), getClass().getClassLoader(), library -> {
                        throw new AssertionError("nothing is loaded");
                    });

            assertEquals(Optional.empty(), fallback, "nothing to say: the user chose");
            assertEquals(before, properties);
        }
        assertFalse(Files.exists(dir.resolve("fleet")), "nothing is cached");
    }

    @Test
    void aTempFolderAndArchitectureOfTheUsersOwnAreKept() {
        Properties properties = thisPlatform();
        properties.setProperty(SqliteNativeLibraryCache.TMPDIR, "/the/users/tmp");
        properties.setProperty(SqliteNativeLibraryCache.ARCHITECTURE, "no_such_arch");

        Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", dir.toString()), getClass().getClassLoader(), library -> { });

        assertTrue(fallback.orElseThrow().contains("/no_such_arch/"), fallback.get());
        assertEquals("/the/users/tmp", properties.getProperty(SqliteNativeLibraryCache.TMPDIR));
        assertEquals(null, properties.getProperty(SqliteNativeLibraryCache.LIB_PATH));

        properties.remove(SqliteNativeLibraryCache.ARCHITECTURE);
        assertEquals(Optional.empty(), SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", dir.toString()), getClass().getClassLoader(), library -> { }));
        assertEquals("/the/users/tmp", properties.getProperty(SqliteNativeLibraryCache.TMPDIR));
    }

    @Test
    void anUnwritableCacheFallsBackToAPrivateCopyNeverToTheDriversOwnWay() throws IOException {
        // Root may write anywhere, so the cache folder is made impossible instead: its parent is a file.
        Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "a file");
        Properties properties = thisPlatform();
        List<Path> loaded = new ArrayList<>();

        Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", notAFolder.toString()), getClass().getClassLoader(), loaded::add);

        assertEquals(Optional.empty(), fallback);
        assertEquals(1, loaded.size());
        Path library = loaded.get(0);
        assertEquals(library.getParent().toString(), properties.getProperty(SqliteNativeLibraryCache.LIB_PATH));
        assertEquals(library.getFileName().toString(), properties.getProperty(SqliteNativeLibraryCache.LIB_NAME));
        assertEquals(library.getParent().toString(), properties.getProperty(SqliteNativeLibraryCache.TMPDIR),
                "the driver's cleanup looks only in the private folder");
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(library.getParent())));
    }

    @Test
    void aHomeThatDoesNotExistIsNeverCreated() {
        Path home = dir.resolve("nonexistent");
        Properties properties = thisPlatform();

        assertEquals(Optional.empty(), NativeCacheFolder.root(Map.of("HOME", home.toString()), null));
        assertEquals(Optional.empty(), SqliteNativeLibraryCache.configure(properties, Map.of("HOME", home.toString()),
                getClass().getClassLoader(), library -> { }));
        assertFalse(Files.exists(home), "HOME was created");
    }

    @Test
    void aCopyThatDoesNotLoadIsNotHandedToTheDriver() {
        Properties properties = thisPlatform();
        Properties before = (Properties) properties.clone();

        Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", dir.toString()), getClass().getClassLoader(), library -> {
                    throw new UnsatisfiedLinkError(library + ": failed to map segment from shared object");
                });

        assertTrue(fallback.orElseThrow().contains("failed to map segment"), fallback.get());
        assertEquals(before, properties);
    }

    @Test
    void anUnknownPlatformLeavesTheDriverItsOwnWay() {
        Properties properties = thisPlatform();
        properties.setProperty("os.arch", "arm");
        Properties before = (Properties) properties.clone();

        Optional<String> fallback = SqliteNativeLibraryCache.configure(properties,
                Map.of("XDG_CACHE_HOME", dir.toString()), getClass().getClassLoader(), library -> { });

        assertTrue(fallback.orElseThrow().contains("os.arch=arm"), fallback.get());
        assertEquals(before, properties);
    }

    @Test
    void aDriverThatLoadedItsOwnCopyFirstIsLeftAloneRatherThanGivenASecond() throws Exception {
        Path tmp = Files.createTempDirectory("plain-jdbc-tmp");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                PlainJdbcFirstMain.class.getName()).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "finished");
        assertEquals(0, child.exitValue(), "two copies of the library in one JVM crash it: " + output);
    }

    /** This JVM's platform, in properties of the test's own; skipped where the cache cannot serve it. */
    private static Properties thisPlatform() {
        Properties properties = new Properties();
        for (String key : List.of("os.name", "os.arch", "java.runtime.name", "user.home")) {
            properties.setProperty(key, System.getProperty(key, ""));
        }
        assumeTrue(SqlitePlatform.folder(properties.getProperty("os.name"),
                properties.getProperty("os.arch"), null, SqlitePlatform::runsOnMusl, () -> false).isPresent(),
                "the cache has no folder for this platform; the driver's own way is tested by its authors");
        return properties;
    }
}
