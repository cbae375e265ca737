package dev.fleet.registry.sqlite;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Where the shared cache of the native library lives: under the user's XDG cache folder. */
final class NativeCacheFolder {

    private NativeCacheFolder() {
    }

    /**
     * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/fleet/sqlite-jdbc} ({@code user.home} when HOME is unset);
     * a relative XDG_CACHE_HOME is ignored, as the XDG spec says.
     */
    static Optional<Path> root(Map<String, String> environment, String userHome) {
        try {
            return rootOf(environment, userHome);
        } catch (InvalidPathException e) {
            // Without a UTF-8 locale a HOME such as /tmp/josé can be no path: no cache, then a private copy.
            return Optional.empty();
        }
    }

    private static Optional<Path> rootOf(Map<String, String> environment, String userHome) {
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
}
