package dev.fleet.registry.sqlite;

import dev.fleet.domain.Failures;
import dev.fleet.domain.RegistryReason;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import org.jooq.exception.DataAccessException;

/** A failed write as the one-line exception a server logs and {@code registry migrate} prints. */
final class WriteFailures {

    private WriteFailures() {
    }

    static RegistryStorageException failure(Path file, String operation, Throwable cause) {
        return failure(file, operation, null, cause);
    }

    /** One line: the operation, the file, how it went (when there is more to say) and the cause's first line. */
    static RegistryStorageException failure(Path file, String operation, String how, Throwable cause) {
        // A library's wording ("Error while running ConnectionCallable") tells an operator nothing.
        String detail = SqliteErrors.reasonFor(cause, file) == RegistryReason.CORRUPT
                ? "not a SQLite database, or a damaged one; nothing was changed"
                : Failures.oneLine(driverFailure(cause));
        return new RegistryStorageException("registry " + operation + " failed for " + file
                + (how == null ? "" : " (" + how + ")") + ": " + detail, cause);
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
