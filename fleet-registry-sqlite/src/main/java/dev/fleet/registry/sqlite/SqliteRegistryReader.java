package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RowOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * The registry as evidence for an assessment. The file is opened read-only at the driver level and
 * without CREATE: an assessment never creates, migrates or writes it (no Liquibase here). Every
 * column is read by name and as stored, so a table another tool made with its columns in another
 * order reads the same, and a row written badly reaches the domain and becomes a malformed
 * registration there; a file that cannot be read becomes a {@link RegistryReason}. Only a regular
 * file is ever opened: a FIFO would block the answer forever. The query is jOOQ's, on the generated
 * table ({@link SqliteRows}).
 */
public final class SqliteRegistryReader implements RegistryEvidence, RegistryListing {

    /** Short: an assessment should report a lock promptly rather than hang behind it. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(2);

    /** How long past the deadline the reading thread may take to notice it and stop. */
    private static final long NOTICE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** A non-empty SQLite file is at least its database header. */
    private static final int SQLITE_HEADER_BYTES = 100;

    private final Path file;
    private final DataSource dataSource;
    /** Reading threads, kept a while between reads rather than started for each. */
    private final ExecutorService readingThreads = Executors.newCachedThreadPool(SqliteRegistryReader::readingThread);
    /** Whether the last read that outlived its deadline is still running: blocked in the kernel, perhaps. */
    private final AtomicReference<AtomicBoolean> stuck = new AtomicReference<>();

    public SqliteRegistryReader(Path file) {
        this(file, DEFAULT_BUSY_TIMEOUT);
    }

    /** @param busyTimeout how long to wait for a writer holding the file locked before reporting {@code locked} */
    public SqliteRegistryReader(Path file, Duration busyTimeout) {
        this.file = Objects.requireNonNull(file, "file");
        this.dataSource = SqliteFiles.readOnly(file, Objects.requireNonNull(busyTimeout, "busyTimeout"));
    }

    /**
     * Loads sqlite-jdbc, its native library (from the per-user cache) and its logging by opening a
     * database in memory, which touches no file: the floor under every SQLite read, which the
     * benchmarks time apart ({@code scripts/perf.sh floor}). Optional, and it never throws; a read
     * reports whatever is wrong.
     */
    public static void loadDriver() {
        try (Connection memory = SqliteFiles.inMemory()) {
            // Opened and closed: the driver and its native library are loaded.
        } catch (Exception | LinkageError e) {
            // The read that follows meets the same failure and turns it into a reason.
        }
    }

    /** Every row in the listing's order: the assessment's evidence and the operator's listing alike. */
    @Override
    public RegistryRead readAll() {
        return listed(read(), null);
    }

    @Override
    public RegistryRead read(RegistrationStatus status) {
        return listed(read(), Objects.requireNonNull(status, "status"));
    }

    /**
     * {@code read}'s rows of {@code status} (every row for null) in the listing order ({@link
     * RowOrder#listed}, which filters in Java); an unreadable read as it is.
     */
    private static RegistryRead listed(RegistryRead read, RegistrationStatus status) {
        return read instanceof RegistryRead.Readable readable
                ? RegistryRead.of(RowOrder.listed(readable.rows(), status), readable.clock()) : read;
    }

    @Override
    public String location() {
        return file.toString();
    }

    private static Thread readingThread(Runnable read) {
        Thread thread = new Thread(read, "fleet-registry-read");
        thread.setDaemon(true);
        return thread;
    }

    /**
     * The read runs on a daemon thread (an idle one from an earlier read, else a new one) and is
     * waited for at most {@link ReadBounds#READ_TIME} (and a moment for the statement to notice its
     * interrupt). A path swapped for a FIFO between our look at it and the driver's open blocks that
     * open in the kernel, where nothing in Java can reach it: the answer is then io_error on time,
     * and the stuck thread, a daemon, is released when the FIFO gets a writer or the process ends.
     */
    private RegistryRead read() {
        AtomicBoolean blocked = stuck.get();
        if (blocked != null && blocked.get()) {
            // At most one stuck thread per reader, however often a long-running server is asked.
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, "an earlier read of it is still blocked "
                    + "opening it (was the file swapped for a FIFO or device?)");
        }
        if (RegistryFileKind.of(file) == RegistryFileKind.REGULAR) {
            // jOOQ and the driver loaded before the clock starts: the deadline bounds the file, not
            // class loading. Only looked at here; the read looks again, as it always did.
            SqliteRows.ready();
        }
        long deadline = System.nanoTime() + ReadBounds.READ_TIME.toNanos();
        AtomicBoolean running = new AtomicBoolean();
        FutureTask<RegistryRead> task = new FutureTask<>(() -> {
            running.set(true);
            try {
                return readNow(deadline);
            } finally {
                running.set(false);
            }
        });
        readingThreads.execute(task);
        try {
            return task.get(ReadBounds.READ_TIME.toNanos() + NOTICE_NANOS, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            stuck.set(running);
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, "opening or reading it took longer than "
                    + ReadBounds.READ_TIME.toSeconds() + " s (was the file swapped for a FIFO or device?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            task.cancel(true);
            return RegistryRead.unreadable(RegistryReason.IO_ERROR, "interrupted while reading");
        } catch (ExecutionException e) {
            return ReadFailures.readFor(e.getCause(), file);
        }
    }

    private static RegistryRead readRows(Connection connection, long deadline) throws Exception {
        DSLContext ctx = SqliteJooq.using(connection);
        ReadBounds.apply(connection, ctx, deadline);
        Set<String> columns = SqliteEngine.INSTANCE.columns(ctx);
        if (columns.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, "no table " + SqliteRows.TABLE);
        }
        List<String> missing = RegistryColumn.missingRequired(columns);
        if (!missing.isEmpty()) {
            return RegistryRead.unreadable(RegistryReason.SCHEMA_MISSING, SqliteRows.describeMissing(missing));
        }
        return RegistryRead.of(SqliteRows.select(ctx, columns));
    }

    private RegistryRead readNow(long deadline) {
        RegistryFileKind kind = RegistryFileKind.of(file);
        switch (kind) {
            case ABSENT:
                return RegistryRead.unreadable(RegistryReason.MISSING);
            case NOT_A_FILE, UNRESOLVABLE:
                // Never handed to SQLite: opening a FIFO would block this answer forever.
                return RegistryRead.unreadable(RegistryReason.IO_ERROR, kind.detail());
            default:
                break;
        }
        try {
            // Only looked at, never opened here: closing a descriptor of the file would drop the POSIX
            // locks SQLite holds on it in this process (a server writes while it reads).
            long size = Files.size(file);
            if (size > 0 && size < SQLITE_HEADER_BYTES) {
                // SQLite takes a file shorter than its header for an empty database: "no table".
                return RegistryRead.unreadable(RegistryReason.CORRUPT, "truncated: " + size
                        + " bytes, shorter than SQLite's " + SQLITE_HEADER_BYTES + "-byte header");
            }
            Optional<String> foreign = ForeignWalFiles.refusal(file);
            if (foreign.isPresent()) {
                return RegistryRead.unreadable(RegistryReason.IO_ERROR, foreign.get());
            }
            // A fresh connection per read, closed after it: a connection kept open would keep its
            // share of the WAL index, and another tool asking for the file exclusively
            // (locking_mode=EXCLUSIVE) would wait for it for ever.
            try (Connection connection = dataSource.getConnection()) {
                return readRows(connection, deadline);
            }
        } catch (Exception e) {
            // The contract is a reason, never an exception: whatever escapes the driver is classified.
            return ReadFailures.readFor(e, file);
        }
    }
}
