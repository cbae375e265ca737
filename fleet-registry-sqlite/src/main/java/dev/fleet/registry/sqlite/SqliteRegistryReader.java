package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.port.out.RegistryReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The registry as evidence for an assessment. The file is opened read-only at the driver level and
 * without CREATE: an assessment never creates, migrates or writes it (no Liquibase here). Every
 * column is read by name and as stored, so a table another tool made with its columns in another
 * order reads the same, and a row written badly reaches the domain and becomes a malformed
 * registration there; a file that cannot be read becomes a {@link RegistryReason}. Only a regular
 * file is ever opened: a FIFO would block the answer forever. The query is plain JDBC
 * ({@link RowQuery}): jOOQ's start-up alone cost more than the rest of a cold assessment.
 */
public final class SqliteRegistryReader implements RegistryReader {

    /** Short: an assessment should report a lock promptly rather than hang behind it. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(2);

    private final Path file;
    private final DataSource dataSource;

    public SqliteRegistryReader(Path file) {
        this(file, DEFAULT_BUSY_TIMEOUT);
    }

    /** @param busyTimeout how long to wait for a writer holding the file locked before reporting {@code locked} */
    public SqliteRegistryReader(Path file, Duration busyTimeout) {
        this.file = Objects.requireNonNull(file, "file");
        this.dataSource = SqliteFiles.readOnly(file, Objects.requireNonNull(busyTimeout, "busyTimeout"));
    }

    @Override
    public RegistryRead readAll() {
        return read(Optional.empty());
    }

    @Override
    public RegistryRead read(RegistrationStatus status) {
        return read(Optional.of(Objects.requireNonNull(status, "status")));
    }

    @Override
    public String location() {
        return file.toString();
    }

    private RegistryRead read(Optional<RegistrationStatus> status) {
        switch (RegistryFileKind.of(file)) {
            case ABSENT:
                return RegistryRead.unreadable(RegistryReason.MISSING);
            case NOT_A_FILE:
                // Never handed to SQLite: opening a FIFO would block this answer forever.
                return RegistryRead.unreadable(RegistryReason.IO_ERROR, "not a regular file");
            default:
                break;
        }
        try (Connection connection = dataSource.getConnection()) {
            Set<String> columns = RowQuery.columnsOf(connection);
            if (columns.isEmpty()) {
                return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "no table " + RowQuery.TABLE);
            }
            List<String> missing = RowQuery.missingRequired(columns);
            if (!missing.isEmpty()) {
                return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, RowQuery.describeMissing(missing));
            }
            return RegistryRead.of(RowOrder.sorted(RowQuery.select(connection, columns, status.orElse(null))));
        } catch (Exception e) {
            // The contract is a reason, never an exception: whatever escapes the driver is classified.
            return RegistryRead.unreadable(ReadFailures.reasonFor(e, file));
        }
    }
}
