package dev.fleet.cli.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** What an {@code --output} path names, a link followed: which decides what {@link OutputFile} may do with it. */
enum FileKind {
    /** Nothing there to inspect: a new file, a dangling link, or a path the write itself will say is wrong. */
    MISSING("nothing"),
    REGULAR("a regular file"),
    DIRECTORY("a directory"),
    CHARACTER_DEVICE("a character device"),
    BLOCK_DEVICE("a block device"),
    FIFO("a FIFO"),
    SOCKET("a socket"),
    /** A kind this platform does not name (no {@code unix:mode} to tell). */
    OTHER("no regular file");

    /** The file type bits of {@code st_mode}, and the values {@code inode(7)} gives them. */
    private static final int TYPE_MASK = 0170000;
    private static final int CHARACTER = 0020000;
    private static final int BLOCK = 0060000;
    private static final int PIPE = 0010000;
    private static final int SOCK = 0140000;

    private final String description;

    FileKind(String description) {
        this.description = description;
    }

    /** "a socket", for the one line that refuses it. */
    String description() {
        return description;
    }

    static FileKind of(Path path) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return MISSING;
        } catch (IOException e) {
            // Cannot stat it (a loop of links, a directory not searchable): creating the temporary file
            // beside it or renaming it into place fails then too, and says why in its own line.
            return MISSING;
        }
        if (attributes.isRegularFile()) {
            return REGULAR;
        }
        if (attributes.isDirectory()) {
            return DIRECTORY;
        }
        return special(path);
    }

    private static FileKind special(Path path) {
        try {
            return switch ((Integer) Files.getAttribute(path, "unix:mode") & TYPE_MASK) {
                case CHARACTER -> CHARACTER_DEVICE;
                case BLOCK -> BLOCK_DEVICE;
                case PIPE -> FIFO;
                case SOCK -> SOCKET;
                default -> OTHER;
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return OTHER;
        }
    }
}
