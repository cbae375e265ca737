package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.port.out.RegistryReader;
import dev.fleet.registry.sqlite.jooq.tables.McpServerRuntimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The registry as evidence for an assessment. The file is opened read-only at the driver level and
 * without CREATE: an assessment never creates, migrates or writes it (no Liquibase here). Every
 * column is read as stored, so a row another tool wrote badly reaches the domain and becomes a
 * malformed registration there; a file that cannot be read becomes a {@link RegistryReason}.
 */
public final class SqliteRegistryReader implements RegistryReader {

    /** Short: an assessment should report a lock promptly rather than hang behind it. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(2);

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;
    /** The pid as SQLite stores it, so a pid that is not a whole number is seen as such. */
    private static final Field<String> PID_AS_TEXT = RUNTIMES.PID.cast(SQLDataType.VARCHAR).as("pid_as_text");

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
        if (!Files.exists(file)) {
            return RegistryRead.unreadable(RegistryReason.MISSING);
        }
        try (Connection connection = dataSource.getConnection()) {
            DSLContext ctx = Jooq.using(connection);
            if (!SchemaCatalog.tableExists(ctx, RUNTIMES)) {
                return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING);
            }
            Condition filter = status.map(wanted -> RUNTIMES.STATUS.eq(wanted.code())).orElse(DSL.noCondition());
            List<RegistryRow> rows = ctx.select(RUNTIMES.asterisk(), PID_AS_TEXT)
                    .from(RUNTIMES)
                    .where(filter)
                    .orderBy(RUNTIMES.REGISTERED_AT, RUNTIMES.RUNTIME_ID)
                    .fetch(record -> RowMapping.toRow(record.into(RUNTIMES), record.get(PID_AS_TEXT)));
            return RegistryRead.of(RowOrder.sorted(rows));
        } catch (Exception e) {
            // The contract is a reason, never an exception: whatever escapes the driver is classified.
            return RegistryRead.unreadable(ReadFailures.reasonFor(e, file));
        }
    }
}
