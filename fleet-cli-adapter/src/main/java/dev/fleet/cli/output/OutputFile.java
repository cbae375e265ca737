package dev.fleet.cli.output;

import dev.fleet.cli.option.KernelPath;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code --output FILE}. A regular FILE (or a new one) is written atomically: the answer goes to a
 * temporary file in FILE's own directory, is forced to disk, and is renamed over FILE. A reader
 * (node_exporter's textfile collector) sees the old file or the new one, never a part; a write that
 * fails leaves the old file as it was and removes the temporary one.
 *
 * <p>Only a regular file is ever replaced: a rename over a device or a FIFO would put a file where
 * the device was (as root, over {@code /dev/null}). A character device or a FIFO takes the answer as
 * a stream, as a shell's {@code >} would put it there: {@code /dev/null}, {@code /dev/stdout} into a
 * pipe, a process substitution {@code >(gzip >x)}, a named pipe a consumer reads. Those are someone's
 * deliberate pipes (the textfile collector reads a directory of regular files and never meets one),
 * so refusing them would protect nothing. But {@code open(2)} of a FIFO with no reader blocks until
 * one comes, and Java cannot ask for {@code O_NONBLOCK}: the stream is written on a daemon thread and
 * waited for {@link #READER_WAIT} at most, so a cron job or timer never piles up behind a pipe no one
 * reads. A block device is refused (a stream into a disk overwrites its first blocks, never what is
 * meant), and so is a socket ({@code open(2)} cannot open one); each in one line.
 *
 * <p>A link is followed to decide which: a link to a device or FIFO writes into it and stays. A link
 * to a regular file is replaced by the new file, as before: the rename replaces the link itself and
 * never writes through it into a file elsewhere, which a link planted in a shared directory could
 * otherwise aim at. But a link into {@code /proc/PID/fd} ({@code /dev/stdout}, {@code /dev/fd/1})
 * names a descriptor of this very process ({@link OpenFileLink}): one open on a pipe or a device is
 * written into as above, and one open on a regular file, or closed, is refused in one line. A rename
 * there put a regular file where the host's {@code /dev/stdout} was and left the caller's
 * {@code > file} empty; writing through it would put the answer in whatever file the descriptor is
 * open on, which, where the caller closed it, is one the JVM opened for itself. Leaving
 * {@code --output} out writes the answer to stdout.
 */
public final class OutputFile {

    /** How long a FIFO (or a device) may take to accept the whole answer: a reader already waiting takes it at once. */
    static final Duration READER_WAIT = Duration.ofSeconds(10);

    /** Readable by a collector running as another user, as a file written by a shell would be. */
    private static final Set<PosixFilePermission> READABLE = PosixFilePermissions.fromString("rw-r--r--");

    private OutputFile() {
    }

    /**
     * Writes {@code bytes} to {@code file}: replaced atomically when it is a regular file or none,
     * streamed into it when it is a character device or a FIFO, refused otherwise.
     *
     * @throws IOException with a message fit for one line: what could not be done, and why
     */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path target = KernelPath.of(file);
        FileKind kind = FileKind.of(target);
        if ((kind == FileKind.MISSING || kind == FileKind.REGULAR) && OpenFileLink.names(target)) {
            throw new IOException("cannot write " + target + ": it names a file descriptor of this process's own, "
                    + "not a file to replace (without --output, the answer goes to stdout)");
        }
        switch (kind) {
            case MISSING, REGULAR -> replace(target, bytes);
            case CHARACTER_DEVICE, FIFO -> stream(target, bytes);
            case DIRECTORY -> throw new IOException("cannot write " + target + ": it is a directory");
            default -> throw new IOException("cannot write " + target + ": it is " + kind.description()
                    + "; only a regular file is replaced, and only a character device or a FIFO is written into");
        }
    }

    private static void replace(Path target, byte[] bytes) throws IOException {
        Path directory = target.getParent();
        Path temporary;
        try {
            // The name starts with a dot: the textfile collector reads only *.prom, never this.
            temporary = Files.createTempFile(directory, "." + target.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw new IOException("cannot write " + target + ": cannot create a file in " + directory + " ("
                    + reason(e) + "); the old file, if any, is unchanged", e);
        }
        try {
            write(temporary, bytes, permissions(target), owners(target));
            move(temporary, target);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw new IOException("cannot write " + target + " (" + reason(e) + "); the old file, if any, is unchanged",
                    e);
        }
    }

    /** Into a device or FIFO as it is: opened for writing only (no create, no truncate), never forced. */
    private static void stream(Path target, byte[] bytes) throws IOException {
        CompletableFuture<Void> written = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
                writeAll(channel, bytes);
                written.complete(null);
            } catch (IOException | RuntimeException e) {
                written.completeExceptionally(e);
            }
        }, "fleet-output");
        writer.setDaemon(true); // blocked in open(2) on a FIFO with no reader, it must not hold the exit
        writer.start();
        try {
            written.get(READER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("cannot write " + target + ": no reader took the answer within "
                    + READER_WAIT.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new IOException("cannot write " + target + " (" + reason(e.getCause()) + ")", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("cannot write " + target + ": interrupted");
        }
    }

    private static void write(Path temporary, byte[] bytes, Set<PosixFilePermission> permissions,
            PosixFileAttributes owners) throws IOException {
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeAll(channel, bytes);
            channel.force(true);
        }
        PosixFileAttributeView posix = Files.getFileAttributeView(temporary, PosixFileAttributeView.class);
        if (posix != null) {
            if (owners != null) {
                keepOwners(posix, owners);
            }
            posix.setPermissions(permissions); // after: a change of owner clears the set-id bits
        }
    }

    /**
     * The old file's owner and group, kept where this user may give them (root may; anyone may keep a group they are
     * in): a roster another user owns, replaced by root, would otherwise become root's, and its owner could no longer
     * read it. Where they may not be given, the new file is this user's, as any file this user writes.
     */
    private static void keepOwners(PosixFileAttributeView posix, PosixFileAttributes old) {
        try {
            posix.setOwner(old.owner());
        } catch (IOException e) {
            // not this user's to give
        }
        try {
            posix.setGroup(old.group());
        } catch (IOException e) {
            // not a group of this user's
        }
    }

    /**
     * The old file's owner and group; null for a new file, a symbolic link (the rename replaces the link itself, so
     * its target's owner is not the replaced file's), or where the file system keeps none.
     */
    private static PosixFileAttributes owners(Path target) {
        try {
            PosixFileAttributes old = Files.readAttributes(target, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return old.isRegularFile() ? old : null;
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    private static void writeAll(FileChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
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
    private static String reason(Throwable e) {
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
