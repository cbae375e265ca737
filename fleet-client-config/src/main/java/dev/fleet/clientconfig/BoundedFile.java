package dev.fleet.clientconfig;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/** Reads a configuration file whole, up to {@link ReadBounds#FILE_BYTES}. */
final class BoundedFile {

    private BoundedFile() {
    }

    /**
     * The file's bytes; empty when it is absent (skipped silently). Anything else that keeps it from
     * being read is an {@link UnreadableConfig}: a directory, a FIFO or a device (never opened: a FIFO
     * would block the read), a file too large, one that is not readable or in a directory that may not
     * be entered, one whose read does not end within {@link DeadlineReads#DEADLINE}.
     */
    static Optional<byte[]> read(Path file) throws UnreadableConfig {
        try {
            // Absent only when nothing is there: a directory that may not be entered hides a file, and says so.
            if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
                throw new UnreadableConfig("not a regular file");
            }
            byte[] content = DeadlineReads.head(file, ReadBounds.FILE_BYTES + 1);
            if (content.length > ReadBounds.FILE_BYTES) {
                throw new UnreadableConfig("larger than " + (ReadBounds.FILE_BYTES >> 20) + " MiB");
            }
            return Optional.of(content);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Optional.empty();
        } catch (AccessDeniedException e) {
            throw new UnreadableConfig("permission denied");
        } catch (DeadlineReads.Slow e) {
            throw new UnreadableConfig("cannot be read: " + e.getMessage());
        } catch (IOException e) {
            if (throughAFile(file)) {
                return Optional.empty(); // ENOTDIR, which the JDK reports as no NotDirectoryException: nothing there
            }
            throw new UnreadableConfig("cannot be read");
        }
    }

    /** Whether the nearest of {@code file}'s folders that exists is no folder ({@code HOME=/etc/hostname}). */
    private static boolean throughAFile(Path file) {
        for (Path folder = file.toAbsolutePath().getParent(); folder != null; folder = folder.getParent()) {
            if (Files.exists(folder)) {
                return !Files.isDirectory(folder);
            }
        }
        return false;
    }
}
