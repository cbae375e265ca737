package dev.fleet.cli.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Whether a path reaches, through its links, one of the kernel's links to this process's own open files
 * ({@code /proc/PID/fd/N}): {@code /dev/stdout} is a link to {@code /proc/self/fd/1}, and {@code /dev/fd}
 * one to {@code /proc/self/fd}. Such a path names whatever the descriptor is open on, as the caller
 * opened it, not a file to replace.
 */
final class OpenFileLink {

    /** A descriptor's link, its folder resolved: {@code /proc/self} and {@code /proc/thread-self} are links too. */
    private static final Pattern DESCRIPTOR = Pattern.compile("/proc/\\d+(/task/\\d+)?/fd/\\d+");
    /** As many links as Linux follows in one path ({@code MAXSYMLINKS}). */
    private static final int MOST_LINKS = 40;

    private OpenFileLink() {
    }

    static boolean names(Path absolute) {
        Path path = absolute;
        for (int links = 0; links <= MOST_LINKS && path != null && path.getParent() != null; links++) {
            try {
                path = path.getParent().toRealPath().resolve(path.getFileName());
            } catch (IOException | SecurityException unresolvable) {
                return false; // a folder that is not there: the write itself says what is wrong
            }
            if (DESCRIPTOR.matcher(path.toString()).matches()) {
                return true;
            }
            if (!Files.isSymbolicLink(path)) {
                return false;
            }
            try {
                path = path.getParent().resolve(Files.readSymbolicLink(path));
            } catch (IOException | SecurityException unreadable) {
                return false;
            }
        }
        return false;
    }
}
