package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.NativeCacheFiles.assertNoNameTheDriverWouldCleanUp;
import static dev.fleet.registry.sqlite.NativeCacheFiles.everyFileUnder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fleet.registry.sqlite.NativeLibraryCopies.Fingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cached copy itself: written once, whole, under the fingerprint of the library's bytes, then
 * only read; a damaged copy replaced, other bytes never cached, and racing copiers all given one file.
 */
class NativeLibraryCopiesTest {

    private static final byte[] LIBRARY = "not really a shared object, but bytes all the same".getBytes();

    @TempDir
    Path dir;

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
}
