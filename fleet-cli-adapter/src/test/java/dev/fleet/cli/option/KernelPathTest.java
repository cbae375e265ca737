package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A path named through a link and {@code ..} is the file the kernel opens, not the one its text suggests. */
class KernelPathTest {

    @Test
    void aDotDotAfterALinkGoesUpFromTheLinksTarget(@TempDir Path dir) throws Exception {
        Path target = Files.createDirectories(dir.resolve("real/sub"));
        Path link = Files.createSymbolicLink(dir.resolve("lnk"), target);
        Path real = dir.toRealPath();
        assertEquals(real.resolve("real/r.sqlite3"), KernelPath.of(link.resolve("../r.sqlite3")));
        assertEquals(real.resolve("real/x/r.sqlite3"), KernelPath.of(link.resolve("../x/./r.sqlite3")));
        assertEquals(real.resolve("real"), KernelPath.of(link.resolve("..")));
    }

    @Test
    void aPathWithoutDotDotIsOnlyNormalizedAndShownAsWritten(@TempDir Path dir) throws Exception {
        Path target = Files.createDirectories(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("lnk"), target);
        assertEquals(link.resolve("r.sqlite3").toAbsolutePath(), KernelPath.of(link.resolve("./r.sqlite3")));
    }

    /** {@code missing/..} does not resolve, for the kernel as here: kept as named, the open fails as the kernel's. */
    @Test
    void aPartThatDoesNotResolveIsKeptAsNamed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("file"), "");
        for (String named : new String[] {"missing/../r.sqlite3", "file/../r.sqlite3"}) {
            assertEquals(dir.resolve(named).toAbsolutePath(), KernelPath.of(dir.resolve(named)), named);
        }
    }
}
