package dev.fleet.registry.sqlite;

import dev.fleet.domain.Printable;
import dev.fleet.domain.SecretMask;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock that lets one migration of a registry file run at a time: an OS lock on a sidecar
 * {@code <registry>.migration-lock} file across processes, and a lock inside this JVM (where
 * FileChannel locks do not exclude each other). Every wait is bounded: a migration stopped half way
 * (SIGSTOP, a debugger) must not hang everyone behind it, so a caller that waits past its bound is
 * told which pid holds the lock. The holder writes its pid into the file for that purpose, and a token
 * of its own. The file is never followed through a symbolic link (it would truncate the link's
 * target), and it is removed when the migration ends.
 */
final class MigrationLock implements AutoCloseable {

    /**
     * How long {@code registry migrate} waits for another migration; a server waits longer
     * ({@code SqliteRegistryWriter.SERVER_MIGRATION_WAIT}), as it keeps serving meanwhile.
     */
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(20);

    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int HOLDER_BYTES = 32;
    private static final int COMMAND_LINE_SHOWN = 160;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path file;
    private final FileChannel channel;
    /** A second descriptor of the locked file, closed only once the lock is released (see openIfHeld). */
    private final FileChannel witness;
    private final FileLock lock;

    private MigrationLock(Path file, FileChannel channel, FileChannel witness, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.witness = witness;
        this.lock = lock;
    }

    static Path lockFile(Path registry) {
        return registry.resolveSibling(registry.getFileName() + ".migration-lock");
    }

    /**
     * @throws RegistryStorageException when the lock is still held by another after {@code wait},
     *     naming the pid that holds it
     */
    static MigrationLock acquire(Path registry, Duration wait) throws IOException {
        Path file = lockFile(registry);
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            if (!IN_THIS_JVM.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw held(file, wait, "another thread of this process");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the migration lock " + file, e);
        }
        try {
            while (true) {
                MigrationLock taken = tryOnce(file, deadline, wait);
                if (taken != null) {
                    return taken;
                }
                // The holder before us removed the file as it finished: lock the one at the path now.
            }
        } catch (IOException | RuntimeException e) {
            IN_THIS_JVM.unlock();
            throw e;
        } catch (InterruptedException e) {
            IN_THIS_JVM.unlock();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the migration lock " + file, e);
        }
    }

    /**
     * Opens the lock file (never through a symbolic link, never anything but a regular file), waits
     * for its lock until the deadline, and keeps it only when the file locked is still the one at the
     * path: a holder removes the file before it lets go, so a waiter may win the lock of a file that
     * no longer exists. Null then, to try again.
     */
    private static MigrationLock tryOnce(Path file, long deadline, Duration wait)
            throws IOException, InterruptedException {
        refuseUnlessRegularOrAbsent(file);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException e) {
            // ELOOP: a link put there after our look. Refused rather than followed and truncated.
            refuseUnlessRegularOrAbsent(file);
            throw e;
        }
        try {
            long pause = FIRST_PAUSE_NANOS;
            while (true) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    String token = ProcessHandle.current().pid() + "\n" + Long.toHexString(RANDOM.nextLong()) + "\n";
                    writeHolder(channel, token);
                    FileChannel witness = openIfHeld(file, token);
                    if (witness == null) {
                        closeQuietly(channel);
                        return null;
                    }
                    return new MigrationLock(file, channel, witness, lock);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw held(file, wait, holder(channel));
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(pause, left));
                pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
            }
        } catch (IOException | RuntimeException | InterruptedException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static void refuseUnlessRegularOrAbsent(Path file) {
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                throw new RegistryStorageException("the registry migration lock " + file + " is not a regular file "
                        + "(a symbolic link, FIFO or directory): refusing to follow or write it; nothing was changed. "
                        + "Remove it, then try again", null);
            }
        } catch (IOException absent) {
            // Absent: it is created, without following anything.
        }
    }

    /**
     * The file at the path, opened, when it is the one this process locked (it holds this lock's
     * token); else null. The channel is kept open as long as the lock is held: closing any descriptor
     * of a file drops every POSIX lock this process holds on it, so reading it back and closing
     * would let go of the lock just taken.
     */
    private static FileChannel openIfHeld(Path file, String token) {
        FileChannel atPath = null;
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                return null;
            }
            atPath = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            ByteBuffer bytes = ByteBuffer.allocate(HOLDER_BYTES * 2);
            atPath.read(bytes, 0);
            if (token.equals(new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII))) {
                return atPath;
            }
        } catch (IOException e) {
            // not ours, or gone: try again
        }
        // Another file (or none): closing it drops no lock of ours, which is on the file we opened first.
        closeQuietly(atPath);
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Left behind, it is harmless: the next migration locks and reuses it.
        }
        try {
            lock.release();
        } finally {
            try {
                channel.close();
            } finally {
                closeQuietly(witness);
                IN_THIS_JVM.unlock();
            }
        }
    }

    /** The holder's pid on the first line (for whoever waits), and this lock's own token on the second. */
    private static void writeHolder(FileChannel channel, String token) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.US_ASCII)), 0);
    }

    /** Who holds the lock, as well as can be told: {@code pid 1234 (its command line)}. */
    private static String holder(FileChannel channel) {
        try {
            ByteBuffer bytes = ByteBuffer.allocate(HOLDER_BYTES);
            channel.read(bytes, 0);
            String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim()
                    .lines().findFirst().orElse("");
            if (!text.matches("\\d{1,18}")) {
                return "another process";
            }
            long pid = Long.parseLong(text);
            // Shown on stderr, which MCP clients keep in log files: its secrets masked, argument by argument.
            String commandLine = ProcessHandle.of(pid).map(process -> shown(process.info())).orElse("");
            if (commandLine.length() > COMMAND_LINE_SHOWN) {
                // Its start says which program, its end what that program was asked to do.
                commandLine = commandLine.substring(0, COMMAND_LINE_SHOWN / 3) + " ... "
                        + commandLine.substring(commandLine.length() - 2 * COMMAND_LINE_SHOWN / 3);
            }
            return "pid " + pid + (commandLine.isEmpty() ? "" : " (" + Printable.of(commandLine) + ")");
        } catch (IOException | RuntimeException e) {
            return "another process";
        }
    }

    /** A process's command line with its secrets masked: its arguments apart where the JDK gives them, else joined. */
    private static String shown(ProcessHandle.Info info) {
        if (info.command().isPresent() && info.arguments().isPresent()) {
            List<String> argv = new ArrayList<>(List.of(info.command().get()));
            argv.addAll(List.of(info.arguments().get()));
            return SecretMask.argv(argv);
        }
        return info.commandLine().map(SecretMask::commandLine).orElse("");
    }

    private static RegistryStorageException held(Path file, Duration wait, String holder) {
        return new RegistryStorageException("the registry migration lock " + file + " is still held by " + holder
                + " after " + String.format(Locale.ROOT, "%.1f", wait.toMillis() / 1000.0) + " s (a migration that is stuck or stopped); nothing was changed. "
                + "Try again once it finishes, or end that process", null);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing releases any lock; nothing else to do.
            }
        }
    }
}
