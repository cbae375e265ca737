package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the per-user copy of the native library is cached: the XDG cache home, else ~/.cache, else none. */
class NativeCacheFolderTest {

    @TempDir
    Path dir;

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
}
