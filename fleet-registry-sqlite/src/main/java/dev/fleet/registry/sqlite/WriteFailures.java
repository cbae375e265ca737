package dev.fleet.registry.sqlite;

import dev.fleet.domain.Failures;
import dev.fleet.domain.RegistryReason;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jooq.exception.DataAccessException;

/** A failed write as the one-line exception a server logs and {@code registry migrate} prints. */
final class WriteFailures {

    /** Less room than this left, a failed write is put down to a full disk: a migration needs a few hundred KiB. */
    private static final long NEXT_TO_NO_ROOM = 1024 * 1024;

    private WriteFailures() {
    }

    static RegistryStorageException failure(Path file, String operation, Throwable cause) {
        return failure(file, operation, null, cause);
    }

    /** One line: the operation, the file, how it went (when there is more to say) and the cause's first line. */
    static RegistryStorageException failure(Path file, String operation, String how, Throwable cause) {
        // A library's wording ("Error while running ConnectionCallable") tells an operator nothing, and a
        // writer never surfaces SQLite's "database is locked" (the contract, §3): a lock held past every
        // wait is another process's, said so.
        RegistryReason reason = SqliteErrors.reasonFor(cause, file);
        String detail = reason == RegistryReason.CORRUPT
                ? "not a SQLite database, or a damaged one; nothing was changed"
                : reason == RegistryReason.LOCKED
                ? "another process held it locked for longer than fleet waits; nothing was changed"
                : ForeignWalFiles.blockingWrites(file).or(() -> full(file))
                        .map(blocking -> blocking + " (SQLite: " + said(driverFailure(cause)) + ")")
                        .orElseGet(() -> said(driverFailure(cause)));
        return new RegistryStorageException("registry " + operation + " failed for " + file
                + (how == null ? "" : " (" + how + ")") + ": " + detail, cause);
    }

    /**
     * That the file system holding {@code file} is full, when it has less than {@value #NEXT_TO_NO_ROOM} bytes
     * left: SQLite's own line may name another error then (a commit that found its transaction rolled
     * back by SQLITE_FULL says "cannot commit - no transaction is active").
     */
    private static Optional<String> full(Path file) {
        try {
            Path folder = file.toAbsolutePath().getParent();
            long free = folder == null ? Long.MAX_VALUE : Files.getFileStore(folder).getUsableSpace();
            return free < NEXT_TO_NO_ROOM ? Optional.of("the file system holding it is full (" + free / 1024
                    + " KiB free); free some room and run it again") : Optional.empty();
        } catch (IOException | SecurityException unknown) {
            return Optional.empty();
        }
    }

    /**
     * The failure's line, where a file system failure says what went wrong: the JDK's message for one
     * the OS gave no words for ({@code AccessDeniedException}) is only the path.
     */
    private static String said(Throwable failure) {
        for (Throwable t : Failures.chain(failure)) {
            if (t instanceof FileSystemException file && file.getReason() == null) {
                return FileErrors.describe(file);
            }
        }
        return Failures.oneLine(failure);
    }

    /**
     * The driver's failure inside jOOQ's wrapper: the wrapper's message quotes the whole statement,
     * which tells an operator nothing the driver's own line does not.
     */
    private static Throwable driverFailure(Throwable cause) {
        return cause instanceof DataAccessException && cause.getCause() != null ? cause.getCause() : cause;
    }

    /** {@code failure} itself when it already names the file, else {@link #failure(Path, String, Throwable)}. */
    static RegistryStorageException of(Path file, String operation, Throwable failure) {
        return failure instanceof RegistryStorageException storage ? storage : failure(file, operation, failure);
    }
}
