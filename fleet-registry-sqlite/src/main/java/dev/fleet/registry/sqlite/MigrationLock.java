package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock that lets one migration of a registry file run at a time: an OS lock on a sidecar
 * {@code <registry>.migration-lock} file across processes, and a lock inside this JVM (where
 * FileChannel locks do not exclude each other). Every wait is bounded: a migration stopped half way
 * (SIGSTOP, a debugger) must not hang everyone behind it, so a caller that waits past its bound is
 * told which pid holds the lock. The holder writes its pid into the file for that purpose; the file
 * holds nothing else.
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

    private final FileChannel channel;
    private final FileLock lock;

    private MigrationLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
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
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            long pause = FIRST_PAUSE_NANOS;
            while (true) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    writeHolder(channel);
                    return new MigrationLock(channel, lock);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw held(file, wait, holder(channel));
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(pause, left));
                pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            IN_THIS_JVM.unlock();
            throw e;
        } catch (InterruptedException e) {
            closeQuietly(channel);
            IN_THIS_JVM.unlock();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the migration lock " + file, e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            try {
                channel.close();
            } finally {
                IN_THIS_JVM.unlock();
            }
        }
    }

    private static void writeHolder(FileChannel channel) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
    }

    /** Who holds the lock, as well as can be told: {@code pid 1234 (its command line)}. */
    private static String holder(FileChannel channel) {
        try {
            ByteBuffer bytes = ByteBuffer.allocate(HOLDER_BYTES);
            channel.read(bytes, 0);
            String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim();
            if (!text.matches("\\d{1,18}")) {
                return "another process";
            }
            long pid = Long.parseLong(text);
            String commandLine = ProcessHandle.of(pid).flatMap(process -> process.info().commandLine()).orElse("");
            if (commandLine.length() > COMMAND_LINE_SHOWN) {
                // Its start says which program, its end what that program was asked to do.
                commandLine = commandLine.substring(0, COMMAND_LINE_SHOWN / 3) + " ... "
                        + commandLine.substring(commandLine.length() - 2 * COMMAND_LINE_SHOWN / 3);
            }
            return "pid " + pid + (commandLine.isEmpty() ? "" : " (" + commandLine.replaceAll("\\p{Cntrl}", "?") + ")");
        } catch (IOException | RuntimeException e) {
            return "another process";
        }
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
