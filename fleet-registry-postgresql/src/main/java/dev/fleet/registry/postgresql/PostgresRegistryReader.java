package dev.fleet.registry.postgresql;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import dev.fleet.registry.schema.RegistrySelect;
import dev.fleet.registry.schema.RowOrder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The registry on PostgreSQL as evidence: one read-only transaction ({@code BEGIN READ ONLY}, so the
 * server itself refuses any write) that reads the registry's clock ({@code now()}), the table's
 * columns and its rows, by name, through jOOQ's PostgreSQL dialect. Never creates or migrates
 * anything: a database or table that is not there is {@code missing}, a table lacking columns
 * {@code schema_missing}, no answer within
 * {@link PostgresLocation#LOGIN_TIMEOUT} {@code unreachable}, refused credentials {@code access_denied}.
 */
public final class PostgresRegistryReader implements RegistryEvidence, RegistryListing {

    private final PostgresLocation location;

    public PostgresRegistryReader(PostgresLocation location) {
        this.location = Objects.requireNonNull(location, "location");
    }

    @Override
    public RegistryRead readAll() {
        return read(null);
    }

    @Override
    public RegistryRead read(RegistrationStatus status) {
        try (Connection connection = location.open(PostgresLocation.Session.READER)) {
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            try {
                return readIn(PostgresJooq.using(connection), status);
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            // The reason only: the driver's wording (addresses, timings) would make the digest vary by answerer.
            return RegistryRead.unreadable(PostgresErrors.reasonOf(e));
        } catch (DataAccessException e) {
            // jOOQ's wrapper of the driver's failure: its SQLSTATE decides, as above.
            SQLException cause = e.getCause(SQLException.class);
            return RegistryRead.unreadable(cause == null ? RegistryReason.IO_ERROR : PostgresErrors.reasonOf(cause));
        }
    }

    @Override
    public String location() {
        return location.display();
    }

    private static RegistryRead readIn(DSLContext ctx, RegistrationStatus status) {
        Instant now = ctx.select(DSL.currentOffsetDateTime()).fetchSingle().value1().toInstant();
        Set<String> present = PostgresEngine.INSTANCE.columns(ctx);
        if (present.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.MISSING, "no table " + PostgresEngine.TABLE);
        }
        List<String> missing = RegistryColumn.missingRequired(present);
        if (!missing.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "lacks columns " + String.join(", ", missing));
        }
        // Every row, filtered and sorted in Java as SQLite's are (RowOrder.listed): the same rows list
        // in the same order on both engines.
        RegistrySelect select = RegistrySelect.reading(PostgresEngine.INSTANCE, RegistryFields.present(present));
        List<RegistryRow> rows = select.from(ctx).queryTimeout((int) PostgresLocation.READ_TIMEOUT.toSeconds())
                .fetch(select::toRow);
        return RegistryRead.of(RowOrder.listed(rows, status), now);
    }
}
