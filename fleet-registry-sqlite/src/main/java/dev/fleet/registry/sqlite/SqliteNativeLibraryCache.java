package dev.fleet.registry.sqlite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;

/**
 * sqlite-jdbc's native library, copied once per user into a content-addressed cache and handed to
 * the driver, so that loading the driver starts no process and writes nothing to the temp folder.
 *
 * <p>Left alone, sqlite-jdbc 3.54.1.0 does three things at its first connection (read in its
 * bytecode, {@code SQLiteJDBCLoader} and {@code org.sqlite.util.OSInfo}):
 * <ol>
 * <li>{@code cleanup()}: lists {@code org.sqlite.tmpdir} (default {@code java.io.tmpdir}) and deletes
 * every {@code sqlite-<version>*} file without a {@code .lck} beside it. It runs whatever else is set;
 * JVMs starting together delete each other's files and log "Failed to delete old native lib" with a
 * stack trace.</li>
 * <li>Tries {@code org.sqlite.lib.path} + {@code org.sqlite.lib.name}; when that file loads, it stops
 * here.</li>
 * <li>Otherwise names its platform folder: {@code OSInfo.getOSName()} runs {@code uname -o} (looked up
 * through {@code PATH}) to detect Termux on every Linux, and on ARM {@code getArchName()} also runs
 * {@code uname -m} and a shell. {@code org.sqlite.osinfo.architecture} skips only the latter, never
 * {@code uname -o}. Then it extracts a fresh 1.1 MB copy into the temp folder, deleted only at a
 * normal exit (a kill -9 leaves it behind, with a {@code .lck} that keeps cleanup away forever).</li>
 * </ol>
 * So {@code org.sqlite.lib.path}/{@code org.sqlite.lib.name}, pointing at a library that loads, is
 * what avoids both the process and the extraction; {@code org.sqlite.tmpdir}, pointing at this cache
 * (where no name starts with {@code sqlite-}), keeps cleanup out of the shared temp folder.
 *
 * <p>The platform folder is worked out here without starting anything (system properties, and
 * {@code /proc/self/maps} for musl). The copy lives at
 * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/fleet/sqlite-jdbc/<crc-32>-<size>/<library>}, addressed by
 * its content: the CRC-32 and size that the jar's central directory records for it, read without
 * inflating 1.1 MB at every start (a SHA-256 would cost some 30 ms of a cold start, and the name is a
 * cache key, not a defence: whoever can write to your cache can run code as you anyway). It is
 * written once, to a private temporary name renamed into place atomically, so JVMs starting together
 * never see a partial file; it is never deleted; each start reads it back and checks its CRC.
 *
 * <p>The cache is made only inside a folder that exists ({@code $XDG_CACHE_HOME}'s parent, else
 * {@code $HOME}): HOME itself is never created. Where the cache cannot be written (a read-only HOME, none at all,
 * {@code XDG_CACHE_HOME=/proc/self}), the library is copied into a private 0700 folder of the temp
 * folder for this JVM alone, loaded from there and removed at exit: still no process and no
 * extraction by the driver. The copy is loaded here first, so only a library that loads is handed
 * to the driver. Only what no copy can help (an unknown platform, a library that does not load)
 * leaves the driver its own behaviour, with one line on stderr. A setting of the user's own always wins:
 * {@code -Dorg.sqlite.lib.path} or {@code -Dorg.sqlite.lib.name} turns all this off, and
 * {@code -Dorg.sqlite.tmpdir} and {@code -Dorg.sqlite.osinfo.architecture} are kept and followed.
 */
final class SqliteNativeLibraryCache {

    static final String LIB_PATH = "org.sqlite.lib.path";
    static final String LIB_NAME = "org.sqlite.lib.name";
    static final String TMPDIR = "org.sqlite.tmpdir";
    static final String ARCHITECTURE = "org.sqlite.osinfo.architecture";

    /** What the driver's {@code OSInfo} maps {@code os.arch} to (the same table, lower-cased keys). */
    private static final Map<String, String> ARCH_FOLDERS = Map.ofEntries(
            Map.entry("x86", "x86"), Map.entry("i386", "x86"), Map.entry("i486", "x86"), Map.entry("i586", "x86"),
            Map.entry("i686", "x86"), Map.entry("pentium", "x86"),
            Map.entry("x86_64", "x86_64"), Map.entry("amd64", "x86_64"), Map.entry("em64t", "x86_64"),
            Map.entry("universal", "x86_64"),
            Map.entry("ia64", "ia64"), Map.entry("ia64w", "ia64"), Map.entry("ia64_32", "ia64_32"),
            Map.entry("ia64n", "ia64_32"),
            Map.entry("ppc", "ppc"), Map.entry("power", "ppc"), Map.entry("powerpc", "ppc"),
            Map.entry("power_pc", "ppc"), Map.entry("power_rs", "ppc"),
            Map.entry("ppc64", "ppc64"), Map.entry("power64", "ppc64"), Map.entry("powerpc64", "ppc64"),
            Map.entry("power_pc64", "ppc64"), Map.entry("power_rs64", "ppc64"), Map.entry("ppc64el", "ppc64"),
            Map.entry("ppc64le", "ppc64"),
            Map.entry("riscv64", "riscv64"));

    private static boolean configured;

    private SqliteNativeLibraryCache() {
    }

    /**
     * Points the driver at the cached library, once per class loader; call it before the driver
     * opens its first connection. Never throws and never writes to stdout.
     */
    static synchronized void configureDriver() {
        if (configured) {
            return;
        }
        configured = true;
        if (driverHasLoadedItsOwnCopy(SqliteNativeLibraryCache.class.getClassLoader())) {
            // Something opened a connection without going through SqliteFiles (a test's plain JDBC):
            // a second copy of the library in the same JVM would crash it at the next native call.
            return;
        }
        Optional<String> fallback = configure(System.getProperties(), System.getenv(),
                SqliteNativeLibraryCache.class.getClassLoader(), library -> System.load(library.toString()));
        fallback.ifPresent(reason -> System.err.println("fleet: SQLite native library not cached (" + reason
                + "); sqlite-jdbc will probe the platform and extract its own copy"));
    }

    /**
     * Whether the driver has already loaded a native library in this class loader. Read from its
     * loader's own flag, which initialising the class leaves false: only a load sets it.
     */
    static boolean driverHasLoadedItsOwnCopy(ClassLoader classes) {
        try {
            java.lang.reflect.Field extracted =
                    Class.forName("org.sqlite.SQLiteJDBCLoader", false, classes).getDeclaredField("extracted");
            extracted.setAccessible(true);
            return extracted.getBoolean(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false; // another driver version: the usual path
        }
    }

    /**
     * Caches the library for the platform {@code properties} describe under the cache folder
     * {@code environment} names, loads it with {@code load}, and then sets the driver's properties in
     * {@code properties}.
     *
     * @return empty when the driver is pointed at the cache or the user configured it; otherwise why
     *         not (and {@code properties} is left as it was)
     */
    static Optional<String> configure(Properties properties, Map<String, String> environment, ClassLoader classes,
            Consumer<Path> load) {
        if (properties.getProperty(LIB_PATH) != null || properties.getProperty(LIB_NAME) != null) {
            return Optional.empty();
        }
        try {
            Optional<String> folder = platformFolder(properties.getProperty("os.name", ""),
                    properties.getProperty("os.arch", ""), properties.getProperty(ARCHITECTURE),
                    SqliteNativeLibraryCache::runsOnMusl,
                    () -> runsOnAndroid(properties.getProperty("java.runtime.name", "")));
            if (folder.isEmpty()) {
                return Optional.of("no library folder known for os.name=" + properties.getProperty("os.name")
                        + ", os.arch=" + properties.getProperty("os.arch"));
            }
            String name = System.mapLibraryName("sqlitejdbc");
            String resource = "org/sqlite/native/" + folder.get() + "/" + name;
            URL url = classes.getResource(resource);
            if (url == null) {
                return Optional.of("sqlite-jdbc holds no " + resource);
            }
            Fingerprint fingerprint = fingerprint(url);
            Optional<Path> root = cacheRoot(environment, properties.getProperty("user.home"));
            Path library;
            String tmpdir;
            try {
                library = cachedCopy(root.orElseThrow(() -> new IOException(
                        "neither XDG_CACHE_HOME nor HOME names an existing absolute folder")), name, fingerprint,
                        () -> read(url));
                load.accept(library);
                tmpdir = root.get().toString();
            } catch (IOException | RuntimeException | LinkageError cacheFailed) {
                // Never the driver's own way (it runs uname and extracts into the shared temp folder):
                // a private copy for this JVM alone, loaded here, which the driver is then pointed at.
                library = privateCopy(name, fingerprint, () -> read(url));
                load.accept(library);
                tmpdir = library.getParent().toString();
            }
            properties.setProperty(LIB_PATH, library.getParent().toString());
            properties.setProperty(LIB_NAME, name);
            if (properties.getProperty(TMPDIR) == null) {
                // Where the driver's cleanup looks for its old copies: a folder holding none.
                properties.setProperty(TMPDIR, tmpdir);
            }
            return Optional.empty();
        } catch (IOException | RuntimeException | LinkageError e) {
            // No private copy either (an unknown platform, no temp folder, a library that does not load).
            return Optional.of(oneLine(e));
        }
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

    /**
     * The folder inside the driver's jar ({@code org/sqlite/native/<os>/<arch>}) that its own loader
     * would pick, worked out without starting a process; empty where only a process could tell
     * (32-bit ARM flavours, Android).
     */
    static Optional<String> platformFolder(String osName, String osArch, String architecture, BooleanSupplier musl,
            BooleanSupplier android) {
        String os;
        if (osName.contains("Windows")) {
            os = "Windows";
        } else if (osName.contains("Mac") || osName.contains("Darwin")) {
            os = "Mac";
        } else if (osName.contains("AIX")) {
            os = "AIX";
        } else if (osName.contains("Linux")) {
            if (android.getAsBoolean()) {
                return Optional.empty();
            }
            os = musl.getAsBoolean() ? "Linux-Musl" : "Linux";
        } else {
            os = osName.replaceAll("\\W", "");
        }
        String arch;
        if (architecture != null) {
            arch = architecture;
        } else if (osArch.startsWith("arm")) {
            return Optional.empty();
        } else {
            arch = ARCH_FOLDERS.getOrDefault(osArch.toLowerCase(Locale.US), osArch.replaceAll("\\W", ""));
        }
        if (os.isEmpty() || arch.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(os + "/" + arch);
    }

    /**
     * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/fleet/sqlite-jdbc} ({@code user.home} when HOME is unset);
     * a relative XDG_CACHE_HOME is ignored, as the XDG spec says.
     */
    static Optional<Path> cacheRoot(Map<String, String> environment, String userHome) {
        try {
            return cacheRootOf(environment, userHome);
        } catch (InvalidPathException e) {
            // Without a UTF-8 locale a HOME such as /tmp/josé can be no path: no cache, then a private copy.
            return Optional.empty();
        }
    }

    private static Optional<Path> cacheRootOf(Map<String, String> environment, String userHome) {
        String xdg = environment.get("XDG_CACHE_HOME");
        Path base = null;
        if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
            // Created when missing, as the XDG spec says, but only inside a folder that exists.
            Path folder = Path.of(xdg);
            base = folder.getParent() == null || existingFolder(folder.getParent()) != null ? folder : null;
        } else {
            for (String home : new String[] {environment.get("HOME"), userHome}) {
                if (home != null && !home.isEmpty() && Path.of(home).isAbsolute()) {
                    // HOME itself is never created (HOME=/nonexistent is common for services); .cache may be.
                    base = existingFolder(Path.of(home)) == null ? null : Path.of(home, ".cache");
                    break;
                }
            }
        }
        return Optional.ofNullable(base).map(folder -> folder.resolve("fleet").resolve("sqlite-jdbc"));
    }

    private static Path existingFolder(Path folder) {
        return Files.isDirectory(folder) ? folder : null;
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

    private static byte[] read(URL url) throws IOException {
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

    /**
     * Whether this JVM runs on musl: its own memory map names musl's loader. (A musl loader merely
     * installed beside glibc, as Debian's {@code musl} package does, is not enough.) Without
     * {@code /proc}, the installed loader is the best sign left.
     */
    static boolean runsOnMusl() {
        try (BufferedReader maps = Files.newBufferedReader(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1)) {
            for (String line = maps.readLine(); line != null; line = maps.readLine()) {
                if (line.contains("/ld-musl-") || line.contains("/libc.musl-")) {
                    return true;
                }
            }
            return false;
        } catch (IOException | UncheckedIOException e) {
            try (DirectoryStream<Path> loaders = Files.newDirectoryStream(Path.of("/lib"), "ld-musl-*")) {
                return loaders.iterator().hasNext();
            } catch (IOException | UncheckedIOException notThere) {
                return false;
            }
        }
    }

    /** The driver's own signs of Android, less the one that runs {@code uname -o}. */
    private static boolean runsOnAndroid(String runtimeName) {
        return runtimeName.toLowerCase(Locale.US).contains("android")
                || Files.exists(Path.of("/system/lib/libGLESv1_CM.so"))
                || Files.exists(Path.of("/system/lib64/libGLESv1_CM.so"))
                || Files.exists(Path.of("/system/build.prop"));
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }
}
