package dev.fleet.cli.verb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * {@code --output FILE}, written atomically: the answer goes to a temporary file in FILE's own
 * directory, is forced to disk, and is renamed over FILE. A reader (node_exporter's textfile
 * collector) sees the old file or the new one, never a part; a write that fails leaves the old
 * file as it was and removes the temporary one.
 */
final class OutputFile {

    /** Readable by a collector running as another user, as a file written by a shell would be. */
    private static final Set<PosixFilePermission> READABLE = PosixFilePermissions.fromString("rw-r--r--");

    private OutputFile() {
    }

    /**
     * Replaces {@code file} with {@code bytes}.
     *
     * @throws IOException with a message fit for one line: what could not be done, and why
     */
    static void replace(Path file, byte[] bytes) throws IOException {
        Path target = file.toAbsolutePath().normalize();
        Path directory = target.getParent();
        if (Files.isDirectory(target)) {
            throw new IOException("cannot write " + target + ": it is a directory");
        }
        Path temporary;
        try {
            // The name starts with a dot: the textfile collector reads only *.prom, never this.
            temporary = Files.createTempFile(directory, "." + target.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw new IOException("cannot write " + target + ": cannot create a file in " + directory + " ("
                    + reason(e) + "); the old file, if any, is unchanged", e);
        }
        try {
            write(temporary, bytes, permissions(target));
            move(temporary, target);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw new IOException("cannot write " + target + " (" + reason(e) + "); the old file, if any, is unchanged",
                    e);
        }
    }

    private static void write(Path temporary, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(temporary, PosixFileAttributeView.class);
        if (posix != null) {
            posix.setPermissions(permissions);
        }
    }

    private static void move(Path temporary, Path target) throws IOException {
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("this file system cannot rename atomically", e);
        }
    }

    /** The old file's permissions, kept; a new file's readable by all, as a collector may run as another user. */
    private static Set<PosixFilePermission> permissions(Path target) {
        try {
            return Files.isRegularFile(target) ? Files.getPosixFilePermissions(target) : READABLE;
        } catch (IOException | UnsupportedOperationException e) {
            return READABLE;
        }
    }

    /** What the JDK says went wrong, without its class name: "Permission denied", "No such file or directory". */
    private static String reason(IOException e) {
        String reason = e.getMessage();
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
            reason = fs.getReason();
        } else if (e instanceof java.nio.file.NoSuchFileException) {
            reason = "No such file or directory";
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            reason = "Permission denied";
        }
        return reason == null ? e.getClass().getSimpleName() : reason;
    }
}
