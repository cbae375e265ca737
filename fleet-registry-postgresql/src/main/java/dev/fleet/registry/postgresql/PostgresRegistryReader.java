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
import dev.fleet.registry.schema.RowTally;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The registry on PostgreSQL as evidence: one read-only transaction ({@code BEGIN READ ONLY}, so the
 * server itself refuses any write) that reads the registry's clock ({@code now()}), the table's
 * columns and its rows, by name, through jOOQ's PostgreSQL dialect. Never creates or migrates
 * anything: a database or table that is not there is {@code missing}, a table lacking columns
 * {@code schema_missing}, no answer within
 * {@link PostgresLocation#LOGIN_TIMEOUT} {@code unreachable}, refused credentials {@code access_denied}.
 *
 * <p>Bounded as a SQLite read is (docs/CONTRACT.md, "Read bounds"): the whole read, opening included, within
 * {@link #READ_TIME} (each round trip is bounded by the driver, and a server that trickles its answer just
 * inside that bound is cut off here); its answer within {@link PostgresLocation#READ_BYTES} as the driver
 * receives it; its rows and text by {@link RowTally}. Beyond a bound it is {@code io_error}, saying which.
 */
public final class PostgresRegistryReader implements RegistryEvidence, RegistryListing {

    /** Rows the cursor brings in one round trip: a registry of a few hundred rows in one. */
    private static final int FETCH_ROWS = 1000;

    /** From the start of a read to its last row, opening included: SQLite's bound. */
    static final Duration READ_TIME = Duration.ofSeconds(3);

    /** Ends the connection of a read that outlives {@link #READ_TIME}: one daemon thread for every reader. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fleet-registry-read-deadline");
        thread.setDaemon(true);
        return thread;
    });

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
        long start = System.nanoTime();
        AtomicBoolean cut = new AtomicBoolean();
        try (Connection connection = location.open(PostgresLocation.Session.READER)) {
            long left = READ_TIME.toNanos() - (System.nanoTime() - start);
            ScheduledFuture<?> deadline = DEADLINES.schedule(() -> cut(connection, cut), left, TimeUnit.NANOSECONDS);
            try {
                connection.setAutoCommit(false);
                connection.setReadOnly(true);
                try {
                    return readIn(PostgresJooq.using(connection), status);
                } finally {
                    connection.rollback();
                }
            } finally {
                deadline.cancel(false);
            }
        } catch (SQLException e) {
            return failed(e, cut.get());
        } catch (DataAccessException e) {
            // jOOQ's wrapper of the driver's failure: its SQLSTATE decides, as above.
            SQLException cause = e.getCause(SQLException.class);
            return cause == null ? RegistryRead.unreadable(RegistryReason.IO_ERROR) : failed(cause, cut.get());
        } catch (RowTally.Exceeded e) {
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, refused(e.getMessage()));
        }
    }

    /**
     * The reason only: the driver's wording (addresses, timings) would make the digest vary by answerer. A read
     * cut at its deadline, or an answer larger than the driver may buffer, says which bound.
     */
    private static RegistryRead failed(SQLException e, boolean cut) {
        if (cut) {
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, "reading it took longer than "
                    + READ_TIME.toSeconds() + " s");
        }
        // The driver's words are translated, its property's name never is.
        if (String.valueOf(e.getMessage()).contains("maxResultBuffer")) {
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, refused("an answer of more than "
                    + (PostgresLocation.READ_BYTES >> 20) + " MiB"));
        }
        RegistryReason reason = PostgresErrors.reasonOf(e);
        return reason == RegistryReason.LOCKED
                ? RegistryRead.unreadable(reason, "another session held a lock on " + PostgresEngine.TABLE
                        + " for longer than " + PostgresLocation.READ_LOCK_WAIT.toSeconds() + " s")
                : RegistryRead.unreadable(reason);
    }

    private static String refused(String bound) {
        return bound + " in " + PostgresEngine.TABLE + ": read refused (a registry holds far less)";
    }

    /** Ends a read past its deadline: its connection is closed under it, and its blocked read fails. */
    private static void cut(Connection connection, AtomicBoolean cut) {
        cut.set(true);
        try {
            connection.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            // already closed: the read has ended anyway
        }
    }

    @Override
    public String location() {
        return location.display();
    }

    private static RegistryRead readIn(DSLContext ctx, RegistrationStatus status) throws RowTally.Exceeded {
        Instant now = ctx.select(DSL.currentOffsetDateTime()).fetchSingle().value1().toInstant();
        Set<String> present = PostgresEngine.INSTANCE.columns(ctx);
        if (present.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.MISSING, "no table " + PostgresEngine.TABLE
                    + PostgresEngine.elsewhere(ctx).map(schema -> " in " + PostgresJooq.SCHEMA + "; "
                            + PostgresEngine.movedBy(schema)).orElse(""));
        }
        Optional<String> runsFunctions = PostgresEngine.runsFunctions(ctx);
        if (runsFunctions.isPresent()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, PostgresEngine.TABLE + " is "
                    + runsFunctions.get() + ": its functions would run with this reader's rights, so it is not read");
        }
        List<String> missing = RegistryColumn.missingRequired(present);
        if (!missing.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "lacks columns " + String.join(", ", missing));
        }
        // Every row, filtered and sorted in Java as SQLite's are (RowOrder.listed): the same rows list
        // in the same order on both engines.
        RegistrySelect select = RegistrySelect.reading(PostgresEngine.INSTANCE, RegistryFields.present(present));
        // Streamed through a cursor and counted as the rows come, as SQLite's are: the bounds hold the heap, not
        // only what arrives in one answer.
        RowTally tally = new RowTally();
        List<RegistryRow> rows = new ArrayList<>();
        try (Cursor<Record> cursor = select.from(ctx).queryTimeout((int) PostgresLocation.READ_TIMEOUT.toSeconds())
                .fetchSize(FETCH_ROWS).fetchLazy()) {
            for (Record record : cursor) {
                tally.row();
                for (int i = 0; i < record.size(); i++) {
                    tally.text((String) record.get(i));
                }
                rows.add(select.toRow(record));
            }
        }
        return RegistryRead.of(RowOrder.listed(rows, status), now);
    }
}
