package dev.fleet.registry.sqlite;

import dev.fleet.domain.Failures;
import dev.fleet.registry.sqlite.NativeLibraryCopies.Fingerprint;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

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
 * <p>The platform folder is worked out without starting anything ({@link SqlitePlatform}: system
 * properties, and {@code /proc/self/maps} for musl). The copy ({@link NativeLibraryCopies}) lives at
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
            Optional<String> folder = SqlitePlatform.folder(properties.getProperty("os.name", ""),
                    properties.getProperty("os.arch", ""), properties.getProperty(ARCHITECTURE),
                    SqlitePlatform::runsOnMusl,
                    () -> SqlitePlatform.runsOnAndroid(properties.getProperty("java.runtime.name", "")));
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
            Fingerprint fingerprint = NativeLibraryCopies.fingerprint(url);
            Optional<Path> root = NativeCacheFolder.root(environment, properties.getProperty("user.home"));
            Path library;
            String tmpdir;
            try {
                library = NativeLibraryCopies.cachedCopy(root.orElseThrow(() -> new IOException(
                        "neither XDG_CACHE_HOME nor HOME names an existing absolute folder")), name, fingerprint,
                        () -> NativeLibraryCopies.read(url));
                load.accept(library);
                tmpdir = root.get().toString();
            } catch (IOException | RuntimeException | LinkageError cacheFailed) {
                // Never the driver's own way (it runs uname and extracts into the shared temp folder):
                // a private copy for this JVM alone, loaded here, which the driver is then pointed at.
                library = NativeLibraryCopies.privateCopy(name, fingerprint, () -> NativeLibraryCopies.read(url));
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
            return Optional.of(Failures.withKind(e));
        }
    }
}
