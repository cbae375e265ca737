package dev.fleet.registry.postgresql;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.registry.schema.RegistryWrites;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The registry on PostgreSQL as a server's lifecycle writes it: the registry's shared writes
 * ({@link RegistryWrites}) through jOOQ's PostgreSQL dialect, with {@link PostgresEngine}'s catalog
 * and clock. {@code last_heartbeat_at} is the database's clock at registration and at every
 * heartbeat, so the lease of a row is never judged across two hosts' clocks; {@code registered_at} stays the server's own (rule 5 compares it with a start read on the
 * same host). A transaction that meets a deadlock or a serialization failure is run again, bounded.
 */
public final class PostgresRegistryWriter implements RegistryWriter {

    private static final int ATTEMPTS = 5;

    private final PostgresLocation location;
    private final PostgresLocation.Session session;

    /** A server's writer: it waits for the postmaster and for another's migration as fifty servers starting at once need. */
    public PostgresRegistryWriter(PostgresLocation location) {
        this(location, PostgresLocation.Session.SERVER);
    }

    private PostgresRegistryWriter(PostgresLocation location, PostgresLocation.Session session) {
        this.location = Objects.requireNonNull(location, "location");
        this.session = session;
    }

    /** An operator's writer ({@code registry migrate}): a database that does not answer is told within 5 s. */
    public static PostgresRegistryWriter forOperator(PostgresLocation location) {
        return new PostgresRegistryWriter(location, PostgresLocation.Session.OPERATOR);
    }

    @Override
    public void migrate() {
        withConnection("migrate", connection -> {
            PostgresMigration.migrate(connection, true, location);
            return null;
        });
    }

    @Override
    public Registration register(Registration registration, Optional<Duration> retention) {
        Objects.requireNonNull(registration, "registration");
        RegistryRow row = registration.toRow();
        retention.filter(window -> window.isNegative() || window.isZero()).ifPresent(window -> {
            throw new IllegalArgumentException("retention window must be positive, got " + window);
        });
        // Measured from this server's clock, as on SQLite: a window of days dwarfs any skew between hosts.
        Optional<Instant> pruneBefore = retention.map(window -> Instant.now().minus(window));
        RegistryRow stored = withConnection("register", connection -> {
            PostgresMigration.migrateIfNeeded(connection, location);
            return transaction(connection,
                    ctx -> RegistryWrites.register(ctx, PostgresEngine.INSTANCE, row, pruneBefore));
        });
        if (stored == null) {
            // Written, yet not there: something between fleet and the table kept it (a trigger of another role's).
            throw new RegistryStorageException("registry " + location.display() + ": register: " + row.runtimeId()
                    + " did not read back (no row: does a trigger on " + PostgresEngine.TABLE + " drop it?)", null);
        }
        InterpretedRow interpreted = stored.interpret();
        if (interpreted instanceof Registration read) {
            return read;
        }
        throw new RegistryStorageException("registry " + location.display() + ": the stored row reads back as "
                + interpreted, null);
    }

    @Override
    public boolean heartbeat(String runtimeId, Instant at) {
        return withConnection("heartbeat", connection -> transaction(connection,
                ctx -> RegistryWrites.heartbeat(ctx, PostgresEngine.INSTANCE, runtimeId, at)));
    }

    @Override
    public boolean markStopped(String runtimeId, Instant at) {
        return withConnection("stop", connection -> transaction(connection,
                ctx -> RegistryWrites.markStopped(ctx, runtimeId, at)));
    }

    /** Where the registry lives, as shown to operators. */
    public String location() {
        return location.display();
    }

    /** Runs {@code work} in one transaction, again after a deadlock or serialization failure (bounded). */
    private static <T> T transaction(Connection connection, SqlWork<DSLContext, T> work) throws Exception {
        for (int attempt = 1; ; attempt++) {
            connection.setAutoCommit(false);
            try {
                T result = work.apply(PostgresJooq.using(connection));
                connection.commit();
                connection.setAutoCommit(true);
                return result;
            } catch (Exception e) {
                undo(connection, e);
                SQLException sql = e instanceof SQLException s ? s : findSql(e);
                if (sql == null || !PostgresErrors.retryable(sql) || attempt == ATTEMPTS) {
                    throw e;
                }
                sleepBriefly(attempt);
            }
        }
    }

    /**
     * Rolls back after {@code failure} and puts the session back in autocommit, where the session is still
     * there. Where it is not (the server ended it, the socket timed out), both fail with the driver's "This
     * connection has been closed", which must never replace the failure itself: that hid why the write failed.
     */
    private static void undo(Connection connection, Exception failure) {
        try {
            connection.rollback();
            connection.setAutoCommit(true);
        } catch (SQLException gone) {
            failure.addSuppressed(gone);
        }
    }

    /** What to do when the server refused a write of the role's for want of a privilege. */
    static final String WRITE_ACTION = "Let the database role in the registry URL write the registry: GRANT SELECT, "
            + "INSERT, UPDATE, DELETE ON " + PostgresJooq.SCHEMA + "." + PostgresEngine.TABLE + " TO the role; to migrate, "
            + "run fleet registry migrate as the table's owner (before the table exists, a role that may create in schema "
            + PostgresJooq.SCHEMA + ", such as the database's owner).";

    private <T> T withConnection(String what, SqlWork<Connection, T> work) {
        try (Connection connection = location.open(session)) {
            return work.apply(connection);
        } catch (RegistryStorageException e) {
            throw e;
        } catch (Exception e) {
            SQLException sql = e instanceof SQLException s ? s : findSql(e);
            String why = sql == null ? Objects.toString(e.getMessage(), e.getClass().getSimpleName()) : said(sql);
            throw new RegistryStorageException("registry " + location.display() + ": " + what + " failed: " + why, e);
        }
    }

    /**
     * The reason, the server's own words, and what to do about a database's reason: a refused password's
     * action speaks of the role and its password, as the readers' does.
     */
    private static String said(SQLException sql) {
        RegistryReason reason = PostgresErrors.reasonOf(sql);
        String words = PostgresErrors.oneLine(sql);
        if (!reason.hasOwnAction()) {
            return reason.code() + ": " + words;
        }
        // A write the role may not make (42501) wants more than a reader's GRANT SELECT, which the reason's action asks.
        String action = PostgresErrors.sqlState(sql).equals("42501") ? WRITE_ACTION : reason.action();
        return reason.code() + ": " + (words.endsWith(".") ? words.substring(0, words.length() - 1) : words) + ". "
                + action;
    }

    private static SQLException findSql(Throwable e) {
        for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    private static void sleepBriefly(int attempt) {
        try {
            Thread.sleep(20L * attempt + (long) (Math.random() * 30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A step that may fail with SQL. */
    @FunctionalInterface
    interface SqlWork<I, T> {
        T apply(I input) throws Exception;
    }
}
