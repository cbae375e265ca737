package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;

/**
 * Copies of the native library on disk: the shared cache's copy, addressed by the library's
 * fingerprint and written once atomically, or a private copy for one JVM where the cache cannot be
 * written.
 */
final class NativeLibraryCopies {

    private NativeLibraryCopies() {
    }

    /**
     * The library in a fresh folder of the temp folder that only this user can enter (0700), for this
     * JVM only and removed at its exit: what is left when the shared cache cannot be written.
     */
    static Path privateCopy(String name, Fingerprint fingerprint, LibraryBytes source) throws IOException {
        byte[] bytes = source.read();
        if (!Fingerprint.of(bytes).equals(fingerprint)) {
            throw new IOException("the library read does not match its fingerprint " + fingerprint.folderName());
        }
        Path folder = Files.createTempDirectory("fleet-sqlite-jdbc-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        folder.toFile().deleteOnExit(); // registered first, so deleted after the library in it
        Path library = folder.resolve(name);
        library.toFile().deleteOnExit();
        Files.write(library, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return library;
    }

    /** A library's CRC-32 and size: its address in the cache. */
    record Fingerprint(long crc, long size) {

        static Fingerprint of(byte[] bytes) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            return new Fingerprint(crc.getValue(), bytes.length);
        }

        String folderName() {
            return String.format(Locale.ROOT, "%08x-%d", crc, size);
        }
    }

    /** The library's bytes, read only when the cache lacks them. */
    interface LibraryBytes {
        byte[] read() throws IOException;
    }

    /**
     * The resource's fingerprint as the jar's central directory records it (no 1.1 MB to inflate and
     * hash at every start), else computed from its bytes.
     */
    static Fingerprint fingerprint(URL url) throws IOException {
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection entryInJar) {
            entryInJar.setUseCaches(false);
            try (JarFile jar = entryInJar.getJarFile()) {
                JarEntry entry = entryInJar.getJarEntry();
                if (entry != null && entry.getCrc() >= 0 && entry.getSize() >= 0) {
                    return new Fingerprint(entry.getCrc(), entry.getSize());
                }
            }
        }
        return Fingerprint.of(read(url));
    }

    static byte[] read(URL url) throws IOException {
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        try (InputStream in = connection.getInputStream()) {
            return in.readAllBytes();
        }
    }

    /**
     * The library at {@code root/<crc-32>-<size>/name}: reused when the file there has that
     * fingerprint, else {@code source}'s bytes written to a private temporary file in that folder and
     * renamed into place atomically (a racing JVM renames identical bytes over it; a process that
     * already loaded the file keeps its mapping). Nothing is ever deleted but this call's own
     * temporary file.
     */
    static Path cachedCopy(Path root, String name, Fingerprint fingerprint, LibraryBytes source) throws IOException {
        Path folder = root.resolve(fingerprint.folderName());
        Path library = folder.resolve(name);
        if (holds(library, fingerprint)) {
            return library;
        }
        byte[] bytes = source.read();
        if (!Fingerprint.of(bytes).equals(fingerprint)) {
            throw new IOException("the library read does not match its fingerprint " + fingerprint.folderName());
        }
        Files.createDirectories(folder);
        // Not "sqlite-...": the driver's cleanup deletes such names in org.sqlite.tmpdir.
        Path partial = Files.createTempFile(folder, "." + name + ".", ".partial");
        try {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Where a loaded file cannot be replaced (Windows), another JVM's identical copy will do.
            if (holds(library, fingerprint)) {
                return library;
            }
            throw e;
        } finally {
            deleteQuietly(partial);
        }
        return library;
    }

    /** Gone already after the rename; a failed write's leftover is best removed, but need not be. */
    private static void deleteQuietly(Path partial) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // a stray ".partial" file is harmless: nothing ever loads one
        }
    }

    /** Whether the file is there with these bytes (a few ms: the copy is read back, not trusted by name). */
    private static boolean holds(Path library, Fingerprint fingerprint) {
        try {
            return Files.isRegularFile(library) && Files.size(library) == fingerprint.size()
                    && Fingerprint.of(Files.readAllBytes(library)).equals(fingerprint);
        } catch (IOException e) {
            return false;
        }
    }
}
