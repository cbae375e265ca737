package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.registry.sqlite.NativeLibraryCopies.Fingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user copy of sqlite-jdbc's native library. Whether a real {@code fleet} starts a process
 * or leaves files in the temp folder is proved on the packaged jar (the CLI's
 * {@code NativeLibraryIT}); here, the pieces, without loading anything into this JVM.
 */
class SqliteNativeLibraryCacheTest {

    private static final byte[] LIBRARY = "not really a shared object, but bytes all the same".getBytes();

    @TempDir
    Path dir;

    @Test
    void theFolderIsTheOneTheDriverPicksAndItsJarHoldsIt() {
        Map<List<String>, String> expected = Map.of(
                List.of("Linux", "amd64"), "Linux/x86_64",
                List.of("Linux", "aarch64"), "Linux/aarch64",
                List.of("Linux", "ppc64le"), "Linux/ppc64",
                List.of("Linux", "i386"), "Linux/x86",
                List.of("Linux", "riscv64"), "Linux/riscv64",
                List.of("Mac OS X", "aarch64"), "Mac/aarch64",
                List.of("Mac OS X", "x86_64"), "Mac/x86_64",
                List.of("Windows 11", "amd64"), "Windows/x86_64",
                List.of("FreeBSD", "amd64"), "FreeBSD/x86_64");
        expected.forEach((platform, folder) -> {
            assertEquals(Optional.of(folder), SqlitePlatform.folder(platform.get(0),
                    platform.get(1), null, () -> false, () -> false), platform.toString());
            String name = folder.startsWith("Windows") ? "sqlitejdbc.dll"
                    : folder.startsWith("Mac") ? "libsqlitejdbc.dylib" : "libsqlitejdbc.so";
            assertNotNull(getClass().getClassLoader().getResource("org/sqlite/native/" + folder + "/" + name),
                    "the driver's jar holds " + folder + "/" + name);
        });
    }

    @Test
    void muslAndAnExplicitArchitectureAreFollowed() {
        assertEquals(Optional.of("Linux-Musl/x86_64"),
                SqlitePlatform.folder("Linux", "amd64", null, () -> true, () -> false));
        assertEquals(Optional.of("Linux/armv7"),
                SqlitePlatform.folder("Linux", "arm", "armv7", () -> false, () -> false));
        assertFalse(SqlitePlatform.folder("Mac OS X", "aarch64", null,
                () -> {
                    throw new AssertionError("musl is a Linux question");
                }, () -> false).isEmpty());
    }

    @Test
    void whereOnlyAProcessCouldTellThereIsNoFolder() {
        assertEquals(Optional.empty(),
                SqlitePlatform.folder("Linux", "arm", null, () -> false, () -> false),
                "32-bit ARM: the driver asks uname -m and readelf which flavour");
        assertEquals(Optional.empty(),
                SqlitePlatform.folder("Linux", "aarch64", null, () -> false, () -> true),
                "Android");
    }

    @Test
    void thisJvmIsSeenForWhatItIs() throws IOException {
        boolean muslLoaderMapped;
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            muslLoaderMapped = maps.anyMatch(line -> line.contains("musl"));
        } catch (IOException e) {
            assumeTrue(false, "no /proc/self/maps here");
            return;
        }
        assertEquals(muslLoaderMapped, SqlitePlatform.runsOnMusl());
    }

    @Test
    void theCacheIsXdgCacheHomeElseHomeDotCache() throws IOException {
        String xdg = Files.createDirectory(dir.resolve("xdg")).toString();
        String home = Files.createDirectory(dir.resolve("home")).toString();
        String elsewhere = Files.createDirectory(dir.resolve("elsewhere")).toString();
        assertEquals(Optional.of(Path.of(xdg, "fleet/sqlite-jdbc")), NativeCacheFolder.root(
                Map.of("XDG_CACHE_HOME", xdg, "HOME", home), elsewhere));
        assertEquals(Optional.of(Path.of(home, ".cache/fleet/sqlite-jdbc")), NativeCacheFolder.root(
                Map.of("XDG_CACHE_HOME", "relative/ignored", "HOME", home), elsewhere));
        assertEquals(Optional.of(Path.of(elsewhere, ".cache/fleet/sqlite-jdbc")),
                NativeCacheFolder.root(Map.of(), elsewhere));
        assertEquals(Optional.empty(), NativeCacheFolder.root(Map.of("HOME", ""), "?"));
    }

    /**
     * A NUL stands in for what a non-UTF-8 locale makes of /tmp/josé: no cache (so the private copy),
     * never an exception that would hand loading to the driver's uname and extraction.
     */
    @Test
    void aHomeOrCacheHomeThatCannotBeAPathMeansNoCache() {
        assertEquals(Optional.empty(), NativeCacheFolder.root(Map.of("HOME", "/tmp/jos\u0000"), null));
        assertEquals(Optional.empty(), NativeCacheFolder.root(Map.of("XDG_CACHE_HOME", "/c\u0000"), null));
    }

    @Test
    void theCopyIsWrittenOnceUnderItsFingerprintAndThenOnlyRead() throws IOException {
        Path root = dir.resolve("cache");
        AtomicInteger reads = new AtomicInteger();
        Fingerprint fingerprint = Fingerprint.of(LIBRARY);

        Path first = NativeLibraryCopies.cachedCopy(root, "libsqlitejdbc.so", fingerprint, () -> {
            reads.incrementAndGet();
            return LIBRARY.clone();
        });
        Object fileKey = Files.readAttributes(first, BasicFileAttributes.class).fileKey();
        Path second = NativeLibraryCopies.cachedCopy(root, "libsqlitejdbc.so", fingerprint, () -> {
            throw new AssertionError("a cached copy is not read from the jar again");
        });

        assertEquals(first, second);
        assertEquals(root.resolve(fingerprint.folderName()).resolve("libsqlitejdbc.so"), first);
        assertEquals(1, reads.get());
        assertArrayEquals(LIBRARY, Files.readAllBytes(first));
        assertEquals(fileKey, Files.readAttributes(second, BasicFileAttributes.class).fileKey(), "not rewritten");
        assertEquals(List.of(first), everyFileUnder(root), "no temporary file is left");
        assertNoNameTheDriverWouldCleanUp(root);
    }

    @Test
    void aDamagedCopyIsReplacedWhole() throws IOException {
        Path root = dir.resolve("cache");
        Fingerprint fingerprint = Fingerprint.of(LIBRARY);
        Path library = root.resolve(fingerprint.folderName()).resolve("libsqlitejdbc.so");
        Files.createDirectories(library.getParent());
        byte[] damaged = LIBRARY.clone();
        damaged[3] ^= 1;
        Files.write(library, damaged);

        NativeLibraryCopies.cachedCopy(root, "libsqlitejdbc.so", fingerprint, LIBRARY::clone);

        assertArrayEquals(LIBRARY, Files.readAllBytes(library));
        assertEquals(List.of(library), everyFileUnder(root));
    }

    @Test
    void bytesThatAreNotTheFingerprintedLibraryAreNeverCached() {
        Path root = dir.resolve("cache");
        Fingerprint fingerprint = Fingerprint.of(LIBRARY);

        assertThrows(IOException.class, () -> NativeLibraryCopies.cachedCopy(root, "libsqlitejdbc.so",
                fingerprint, () -> "something else".getBytes()));

        assertFalse(Files.exists(root.resolve(fingerprint.folderName()).resolve("libsqlitejdbc.so")));
    }

    @Test
    void copiersRacingOnAnEmptyCacheAllGetTheSameWholeFile() throws Exception {
        Path root = dir.resolve("cache");
        Fingerprint fingerprint = Fingerprint.of(LIBRARY);
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            List<Future<Path>> copies = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                copies.add(pool.submit(() -> {
                    start.await();
                    return NativeLibraryCopies.cachedCopy(root, "libsqlitejdbc.so", fingerprint, LIBRARY::clone);
                }));
            }
            start.countDown();
            Set<Path> paths = new HashSet<>();
            for (Future<Path> copy : copies) {
                paths.add(copy.get(2, TimeUnit.MINUTES));
            }

            assertEquals(1, paths.size());
            Path library = paths.iterator().next();
            assertArrayEquals(LIBRARY, Files.readAllBytes(library));
            assertEquals(List.of(library), everyFileUnder(root), "no temporary file is left");
        } finally {
            pool.shutdownNow();
        }
    }

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

    private static List<Path> everyFileUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    /** The driver's cleanup deletes {@code sqlite-<version>*} names in {@code org.sqlite.tmpdir}, the root. */
    private static void assertNoNameTheDriverWouldCleanUp(Path root) {
        try (Stream<Path> entries = Files.walk(root)) {
            entries.filter(entry -> !entry.equals(root)).forEach(entry -> assertFalse(entry.getFileName().toString().startsWith("sqlite-"),
                    entry.toString()));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
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
}
