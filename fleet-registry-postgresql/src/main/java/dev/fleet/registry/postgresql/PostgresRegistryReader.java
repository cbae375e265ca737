package dev.fleet.registry.postgresql;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.registry.schema.RegistryColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The registry on PostgreSQL as evidence: one read-only transaction ({@code BEGIN READ ONLY}, so the
 * server itself refuses any write) that reads the registry's clock ({@code now()}), the table's
 * columns and its rows, by name. Never creates or migrates anything: a database or table that is not
 * there is {@code missing}, a table lacking columns {@code schema_missing}, no answer within
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
                return readIn(connection, status);
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            // The reason only: the driver's wording (addresses, timings) would make the digest vary by answerer.
            return RegistryRead.unreadable(PostgresErrors.reasonOf(e));
        }
    }

    @Override
    public String location() {
        return location.display();
    }

    private static RegistryRead readIn(Connection connection, RegistrationStatus status) throws SQLException {
        Instant now = registryClock(connection);
        Set<String> present = PostgresRows.columnsOf(connection);
        if (present.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.MISSING, "no table " + PostgresRows.TABLE);
        }
        List<String> missing = RegistryColumn.missingRequired(present);
        if (!missing.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "lacks columns " + String.join(", ", missing));
        }
        return RegistryRead.of(PostgresRows.select(connection, present, status == null ? null : "status", status == null ? null
                : status.code()), now);
    }

    private static Instant registryClock(Connection connection) throws SQLException {
        try (PreparedStatement clock = connection.prepareStatement("SELECT now()");
                ResultSet result = clock.executeQuery()) {
            result.next();
            return result.getObject(1, OffsetDateTime.class).toInstant();
        }
    }
}
