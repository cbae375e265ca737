package dev.fleet.cli.option;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A path the operator named, absolute and as the kernel resolves it. {@link Path#normalize()} drops
 * {@code link/..} by its text, where the kernel goes up from the link's target: {@code --registry
 * lnk/../r.sqlite3} named another file than a shell's {@code sqlite3 lnk/../r.sqlite3} opens, and
 * {@code --output} wrote where no collector looked. A path without {@code ..} is only normalized, so
 * it is shown as written.
 */
public final class KernelPath {

    private KernelPath() {
    }

    /**
     * {@code path} absolute: up to its last {@code ..} resolved through links, the rest normalized. Where that part
     * does not resolve ({@code missing/..}, {@code file/..}) it is kept as named, so the open fails as the kernel's
     * does, rather than opening what its text suggests.
     */
    public static Path of(Path path) {
        Path absolute = path.toAbsolutePath();
        int lastUp = -1;
        for (int i = 0; i < absolute.getNameCount(); i++) {
            if ("..".equals(absolute.getName(i).toString())) {
                lastUp = i;
            }
        }
        if (lastUp < 0) {
            return absolute.normalize();
        }
        Path upTo = absolute.getRoot().resolve(absolute.subpath(0, lastUp + 1));
        try {
            Path resolved = upTo.toRealPath();
            return lastUp + 1 == absolute.getNameCount() ? resolved
                    : resolved.resolve(absolute.subpath(lastUp + 1, absolute.getNameCount())).normalize();
        } catch (IOException | SecurityException unresolvable) {
            return absolute;
        }
    }
}
