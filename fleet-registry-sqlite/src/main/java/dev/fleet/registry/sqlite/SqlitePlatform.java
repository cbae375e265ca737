package dev.fleet.registry.sqlite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Which of sqlite-jdbc's native folders this JVM needs, worked out as the driver's own
 * {@code OSInfo} would but without starting a process (system properties, and
 * {@code /proc/self/maps} for musl).
 */
final class SqlitePlatform {

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

    private SqlitePlatform() {
    }

    /**
     * The folder inside the driver's jar ({@code org/sqlite/native/<os>/<arch>}) that its own loader
     * would pick, worked out without starting a process; empty where only a process could tell
     * (32-bit ARM flavours, Android).
     */
    static Optional<String> folder(String osName, String osArch, String architecture, BooleanSupplier musl,
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
    static boolean runsOnAndroid(String runtimeName) {
        return runtimeName.toLowerCase(Locale.US).contains("android")
                || Files.exists(Path.of("/system/lib/libGLESv1_CM.so"))
                || Files.exists(Path.of("/system/lib64/libGLESv1_CM.so"))
                || Files.exists(Path.of("/system/build.prop"));
    }
}
