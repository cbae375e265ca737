package dev.fleet.registry.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;

/**
 * The bounds of one registry read (docs/CONTRACT.md, "Read bounds"). The table may be another tool's
 * view: an endless recursive CTE, or rows of computed strings of hundreds of megabytes. An
 * assessment must still answer, so every read is bounded in time (SQLite's progress handler
 * interrupts the statement at the deadline), in the size of any one value (SQLite's own length
 * limit, so a huge string is refused before it is built or handed to Java), and in rows and text
 * in all (counted as they are materialised). Nothing is sorted in SQL: an unbounded input would be
 * sorted through temporary files before the first row arrived.
 */
final class ReadBounds {

    /**
     * From the start of a read to its last row, opening the file included. With a JVM's start, a
     * refused read is answered within 5 s; a real registry reads in well under a second.
     */
    static final Duration READ_TIME = Duration.ofSeconds(3);
    /** The longest string or blob SQLite may build or return on a reader's connection. */
    static final int VALUE_BYTES = 1 << 20;
    /** SQLite's own heap, at most: a reader's sorts and temporary tables live in memory (SqliteFiles). */
    static final long HEAP_BYTES = 256L << 20;

    /** How many SQLite virtual-machine steps pass between two looks at the clock. */
    private static final int STEPS_BETWEEN_CHECKS = 1_000;

    /** What {@code PRAGMA hard_heap_limit} answers. */
    private static final Field<Long> HEAP_LIMIT = DSL.field(DSL.name("hard_heap_limit"), SQLDataType.BIGINT);

    /** Whether a read of this process has set SQLite's heap limit; two that race both set it, harmlessly. */
    private static volatile boolean heapLimited;

    private ReadBounds() {
    }

    /**
     * Applies the value-size limit and the deadline ({@link System#nanoTime()} based) to a fresh
     * connection, {@code ctx} being jOOQ's context on it.
     */
    static void apply(Connection connection, DSLContext ctx, long deadlineNanos) throws SQLException {
        connection.unwrap(SQLiteConnection.class).setLimit(SQLiteLimits.SQLITE_LIMIT_LENGTH, VALUE_BYTES);
        limitHeap(ctx);
        ProgressHandler.setHandler(connection, STEPS_BETWEEN_CHECKS, new ProgressHandler() {
            @Override
            protected int progress() {
                // Non-zero interrupts the statement: SQLITE_INTERRUPT, read as io_error.
                return System.nanoTime() - deadlineNanos >= 0 ? 1 : 0;
            }
        });
    }

    /**
     * SQLite's own memory (an in-memory sort of a foreign view above all) fails with SQLITE_NOMEM,
     * read as io_error, past {@link #HEAP_BYTES}. The limit is process-wide and a pragma can only
     * lower it, so the first read of this process sets it and the others find it in force. A query,
     * as everything on the read side is: the pragma answers with the limit now in force, as the one
     * column it is coerced to (no result metadata asked of the driver). A pragma takes no bind value,
     * so the constant is inlined by jOOQ's template.
     */
    private static void limitHeap(DSLContext ctx) {
        if (!heapLimited) {
            ctx.resultQuery("PRAGMA hard_heap_limit = {0}", DSL.inline(HEAP_BYTES)).coerce(HEAP_LIMIT).fetch();
            heapLimited = true;
        }
    }

    /** A read this program refuses: io_error, and the message is the detail an operator is shown. */
    static class ReadRefused extends Exception {
        private static final long serialVersionUID = 1L;

        ReadRefused(String detail) {
            super(detail);
        }
    }

    /** More rows or text than a registry holds. */
    static final class ReadBoundExceeded extends ReadRefused {
        private static final long serialVersionUID = 1L;

        ReadBoundExceeded(String detail) {
            super(detail + " in " + SqliteRows.TABLE + ": read refused (a registry holds far less)");
        }
    }
}
