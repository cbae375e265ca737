package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Which of sqlite-jdbc's native libraries this platform loads: the folder the driver itself would pick,
 * from the JVM's properties alone, and none where only a process (uname, readelf) could tell.
 */
class SqlitePlatformTest {

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
}
