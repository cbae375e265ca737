package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.sqlite.jooq.tables.McpServerRuntimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record3;

/**
 * The registry as a server's own lifecycle writes it. Every call opens its own connection, so one
 * instance may be shared by threads. A registration or a heartbeat migrates an outdated file first,
 * and a registration a missing one, so a registry deleted under a running server comes back with its
 * next registration; a heartbeat never creates one, and a stop never migrates.
 *
 * <p>Columns are written and read back by name: another tool's table may order them differently or
 * hold columns of its own (this project's own are added by the migration). A path that is not a
 * regular file is refused before anything is created beside it. Every wait is bounded: a write that
 * meets a busy registry retries with backoff until its deadline, a server's write waits for another
 * process's migration {@link #SERVER_MIGRATION_WAIT}, and {@link #migrate()} waits
 * {@link MigrationLock#DEFAULT_WAIT}.
 */
public final class SqliteRegistryWriter implements RegistryWriter {

    /** How long one attempt of a registration or a heartbeat waits for another writer's transaction. */
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long a stop waits for another writer: a server must be gone within 2 s of losing its
     * client (docs/CONTRACT.md), and a stop that cannot be written leaves a row that reads as process_exited.
     */
    public static final Duration STOP_BUSY_TIMEOUT = Duration.ofSeconds(1);
    /**
     * How long a registration or a heartbeat keeps retrying a busy registry, once the file is current.
     * SQLite's own busy handler waits inside each attempt (up to the busy timeout), but it polls, and a
     * long waiter loses to writers that arrive later: fifty servers heartbeating on two starved cores
     * were seen to keep one registration out for two whole 5 s attempts. Some contention (a
     * journal-mode switch, WAL recovery) answers SQLITE_BUSY at once. Both are retried here with
     * backoff. A server serves while it registers, so a long deadline costs nothing but the wait.
     */
    static final Duration REGISTER_DEADLINE = Duration.ofSeconds(30);
    /**
     * How long a server's registration or heartbeat waits for another process's migration of the same
     * file. Longer than {@code registry migrate}'s {@link MigrationLock#DEFAULT_WAIT}: a server keeps
     * serving meanwhile, and fifty JVMs starting together on two cores can starve the one running the
     * first migration (Liquibase, in a cold JVM) for well over 20 s. Still bounded: a migration that
     * is stopped or stuck is named, and the next heartbeat tries again.
     */
    static final Duration SERVER_MIGRATION_WAIT = Duration.ofSeconds(120);
    private static final long FIRST_RETRY_PAUSE_MILLIS = 10;
    private static final long LONGEST_RETRY_PAUSE_MILLIS = 250;

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;

    /**
     * What a writer does when the registry's directory is missing: the default location (an XDG
     * state folder nobody made yet) is created; a path the operator named must already have its
     * directory, so a typo never leaves a tree of folders behind.
     */
    public enum Directories {
        /** Create a missing parent directory (the default location). */
        CREATE_MISSING,
        /** Refuse a path whose parent directory does not exist (a path the operator named). */
        MUST_EXIST;

        /** {@link #MUST_EXIST} for a path the operator named, {@link #CREATE_MISSING} for the default. */
        public static Directories forPath(boolean named) {
            return named ? MUST_EXIST : CREATE_MISSING;
        }
    }

    private final Path file;
    private final Directories directories;
    private final InstantSource clock;
    private final DataSource dataSource;
    /** Registrations and heartbeats: migrate a file that needs it, then retry a busy one until the deadline. */
    private final WritePolicy serving;
    /** Stops: never migrate, and give up soon enough for the server to exit within 2 s. */
    private final WritePolicy stopping;

    /** Where a write connects, how long it retries a busy registry, and how long it waits for a migration (zero: never migrates). */
    private record WritePolicy(DataSource source, Duration deadline, Duration migrationWait) {
        boolean migrates() {
            return !migrationWait.isZero();
        }
    }

    /** A writer that creates the registry's directory when it is missing. */
    public SqliteRegistryWriter(Path file) {
        this(file, Directories.CREATE_MISSING);
    }

    public SqliteRegistryWriter(Path file, Directories directories) {
        this(file, directories, Instant::now, DEFAULT_BUSY_TIMEOUT, REGISTER_DEADLINE);
    }

    /**
     * The seam tests use.
     *
     * @param clock the "now" retention is measured from
     * @param busyTimeout how long one attempt waits for another writer
     */
    SqliteRegistryWriter(Path file, InstantSource clock, Duration busyTimeout) {
        this(file, clock, busyTimeout, REGISTER_DEADLINE);
    }

    /** The seam, with how long a registration or heartbeat keeps retrying a busy registry. */
    SqliteRegistryWriter(Path file, InstantSource clock, Duration busyTimeout, Duration writeDeadline) {
        this(file, Directories.CREATE_MISSING, clock, busyTimeout, writeDeadline);
    }

    private SqliteRegistryWriter(Path file, Directories directories, InstantSource clock, Duration busyTimeout,
            Duration writeDeadline) {
        this.file = Objects.requireNonNull(file, "file");
        this.directories = Objects.requireNonNull(directories, "directories");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(busyTimeout, "busyTimeout");
        Duration stopTimeout = busyTimeout.compareTo(STOP_BUSY_TIMEOUT) < 0 ? busyTimeout : STOP_BUSY_TIMEOUT;
        this.dataSource = SqliteFiles.writer(file, busyTimeout);
        this.serving = new WritePolicy(dataSource, Objects.requireNonNull(writeDeadline, "writeDeadline"),
                SERVER_MIGRATION_WAIT);
        this.stopping = new WritePolicy(SqliteFiles.writer(file, stopTimeout), stopTimeout, Duration.ZERO);
    }

    /**
     * Runs the changelog whether or not the file looks current; idempotent. Creates missing parent
     * directories, and a {@code .migration-lock} file beside the registry that serialises migrations.
     */
    @Override
    public void migrate() {
        migrate(true, MigrationLock.DEFAULT_WAIT);
    }

    /**
     * Checks, before anything is written, that a registry can be made at this path: the path is a
     * regular file or absent, and its directory exists or, for {@link Directories#CREATE_MISSING},
     * has just been created. A server calls this before it serves, so that a registry it could never
     * write is refused at once rather than failing at every heartbeat.
     *
     * @throws RegistryStorageException naming the path and the cause
     */
    public void checkLocation() {
        requireRegularOrAbsent();
        createParentDirectories();
    }

    private void migrate(boolean always, Duration lockWait) {
        checkLocation();
        try {
            SchemaMigration.migrate(file, dataSource, always, lockWait);
        } catch (RuntimeException e) {
            throw e instanceof RegistryStorageException storage ? storage : failure("migrate", e);
        } catch (Exception e) {
            throw failure("migrate", e);
        }
    }

    /**
     * Gets a first registration ready without writing anything: initializes the driver, its native
     * library and jOOQ (rendering the statements a registration runs), and reads the file's schema
     * state read-only when it is a regular file. A server calls this on another core while its
     * transport is being built, so that the registration which follows starts at once rather than
     * paying for all that first. Optional; never throws, never waits for a lock.
     */
    public void prepare() {
        try {
            DSLContext renderer = Jooq.rendering();
            Condition one = RUNTIMES.RUNTIME_ID.eq("prepare").and(RUNTIMES.PID.eq(1L));
            renderer.render(renderer.deleteFrom(RUNTIMES).where(one));
            renderer.render(renderer.update(RUNTIMES).set(RUNTIMES.LAST_HEARTBEAT_AT, "prepare").where(one));
            renderer.render(renderer.insertInto(RUNTIMES).set(RUNTIMES.RUNTIME_ID, "prepare"));
            renderer.render(renderer.select(RUNTIMES.RUNTIME_ID, RUNTIMES.REGISTERED_AT).from(RUNTIMES).where(one));
            if (RegistryFileKind.of(file) == RegistryFileKind.REGULAR) {
                try (Connection connection = SqliteFiles.readOnly(file, Duration.ZERO).getConnection()) {
                    SchemaMigration.isCurrent(Jooq.using(connection));
                }
            }
        } catch (Exception | LinkageError e) {
            // Only a head start: the registration itself reports whatever is wrong.
        }
    }

    @Override
    public Registration register(Registration registration, Optional<Duration> retention) {
        Objects.requireNonNull(registration, "registration");
        Objects.requireNonNull(retention, "retention: pass Optional.empty() for none");
        retention.ifPresent(SqliteRegistryWriter::requirePositive);
        return store(registration.toRow(), retention);
    }

    /** False, creating nothing, when the registry file is gone: the caller decides whether to register again. */
    @Override
    public boolean heartbeat(String runtimeId, Instant at) {
        return updateRow("heartbeat", serving, runtimeId,
                Map.of(RUNTIMES.LAST_HEARTBEAT_AT, Timestamps.format(Objects.requireNonNull(at, "at"))));
    }

    /** False, creating nothing, when the registry file is gone: a stop never brings a registry back. */
    @Override
    public boolean markStopped(String runtimeId, Instant at) {
        return updateRow("mark stopped", stopping, runtimeId, Map.of(RUNTIMES.STATUS,
                RegistrationStatus.STOPPED.code(),
                RUNTIMES.STOPPED_AT, Timestamps.format(Objects.requireNonNull(at, "at"))));
    }

    /** Changes columns of one existing row; false when there is no such row, or no registry at all. */
    private boolean updateRow(String operation, WritePolicy policy, String runtimeId,
            Map<Field<String>, String> changes) {
        Objects.requireNonNull(runtimeId, "runtimeId");
        if (RegistryFileKind.of(file) == RegistryFileKind.ABSENT) {
            return false;
        }
        return write(operation, policy, ctx -> ctx.update(RUNTIMES)
                .set(changes)
                .where(RUNTIMES.RUNTIME_ID.eq(runtimeId))
                .execute() > 0);
    }

    /**
     * Replace-on-pid, optional retention, upsert and read-back, all in one IMMEDIATE transaction, by
     * column name. An update-then-insert rather than an upsert: a table another tool made need not
     * declare runtime_id its primary key.
     */
    private Registration store(RegistryRow row, Optional<Duration> retention) {
        String runtimeId = row.runtimeId();
        RegistryRow stored = write("register", serving, ctx -> {
            RegistryColumns columns = RegistryColumns.of(ctx);
            // The pid now names this server: any other row on it from this pid namespace (or from
            // before namespaces were recorded) describes a process that is gone. A row on the same
            // pid from another namespace may be a live server there, and must stay visible.
            Condition samePid = RUNTIMES.PID.eq(row.pid()).and(RUNTIMES.RUNTIME_ID.isDistinctFrom(runtimeId));
            if (columns.has(RUNTIMES.PID_NAMESPACE) && row.pidNamespace() != null) {
                samePid = samePid.and(RUNTIMES.PID_NAMESPACE.isNull().or(RUNTIMES.PID_NAMESPACE.eq(row.pidNamespace())));
            }
            ctx.deleteFrom(RUNTIMES).where(samePid).execute();
            retention.ifPresent(window -> pruneExpired(ctx, runtimeId, clock.instant().minus(window)));
            Map<Field<?>, Object> values = RowMapping.values(row, columns);
            if (ctx.update(RUNTIMES).set(values).where(RUNTIMES.RUNTIME_ID.eq(runtimeId)).execute() == 0) {
                ctx.insertInto(RUNTIMES).set(values).execute();
            }
            return RowMapping.selectRows(ctx, columns, RUNTIMES.RUNTIME_ID.eq(runtimeId))
                    .fetchOne(record -> RowMapping.toRow(record, columns));
        });
        InterpretedRow interpreted = stored == null ? null : stored.interpret();
        if (interpreted instanceof Registration registration) {
            return registration;
        }
        throw new RegistryStorageException("register: " + runtimeId + " did not read back from " + file + " ("
                + (interpreted == null ? "no row" : ((MalformedRegistration) interpreted).reason().code()) + ")",
                null);
    }

    /**
     * Deletes rows old on both timestamps. Other writers use other timestamp formats, so instants are
     * compared after parsing, never as text; a row whose timestamps cannot be parsed is kept (it shows
     * as malformed, which an operator should see).
     */
    private static void pruneExpired(DSLContext ctx, String keepRuntimeId, Instant cutoff) {
        List<String> expired = new ArrayList<>();
        for (Record3<String, String, String> candidate : ctx
                .select(RUNTIMES.RUNTIME_ID, RUNTIMES.REGISTERED_AT, RUNTIMES.LAST_HEARTBEAT_AT)
                .from(RUNTIMES)
                .where(RUNTIMES.RUNTIME_ID.isDistinctFrom(keepRuntimeId))
                .fetch()) {
            if (candidate.value1() != null && before(candidate.value2(), cutoff)
                    && before(candidate.value3(), cutoff)) {
                expired.add(candidate.value1());
            }
        }
        if (!expired.isEmpty()) {
            ctx.deleteFrom(RUNTIMES).where(RUNTIMES.RUNTIME_ID.in(expired)).execute();
        }
    }

    private static boolean before(String timestamp, Instant cutoff) {
        return Timestamps.parse(timestamp).map(instant -> instant.isBefore(cutoff)).orElse(false);
    }

    /**
     * One IMMEDIATE transaction on a fresh connection, after migrating the file if it needs it (and
     * the policy migrates), retried with backoff while the registry answers busy, until the policy's
     * deadline has passed. The "is it current?" check shares the write's connection, so a heartbeat
     * on a current file opens one connection, not two.
     */
    private <T> T write(String operation, WritePolicy policy, Function<DSLContext, T> work) {
        long started = System.nanoTime();
        long pause = FIRST_RETRY_PAUSE_MILLIS;
        boolean migrated = false;
        for (int attempt = 1; ; attempt++) {
            boolean needsMigration;
            try {
                checkLocation();
                try (Connection connection = policy.source().getConnection()) {
                    needsMigration = policy.migrates() && !isCurrent(connection, !migrated);
                    if (!needsMigration) {
                        return ImmediateTransaction.run(connection, work);
                    }
                }
                if (migrated) {
                    throw new RegistryStorageException("registry " + operation + " failed for " + file
                            + ": it needs migrating again right after a migration", null);
                }
                // First use, or deleted and made again: migrate (or wait for the server migrating it,
                // within the policy's own bound), then write on a fresh connection. A long first
                // migration must not use up the write's deadline, so that starts afresh, once.
                migrate(false, policy.migrationWait());
                migrated = true;
                started = System.nanoTime();
            } catch (SQLException | RuntimeException e) {
                // A busy registry met while migrating arrives wrapped in a RegistryStorageException:
                // it is as retryable as one met while writing.
                if (ReadFailures.reasonFor(e, file) != RegistryReason.LOCKED) {
                    throw e instanceof RegistryStorageException storage ? storage : failure(operation, e);
                }
                long left = policy.deadline().toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                if (left <= 0) {
                    throw failure(operation, "busy through " + attempt + " attempts over "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms", e);
                }
                // Jitter: writers that collided once should not collide again in step.
                sleep(Math.min(left, pause / 2 + ThreadLocalRandom.current().nextLong(pause / 2 + 1)));
                pause = Math.min(pause * 2, LONGEST_RETRY_PAUSE_MILLIS);
            }
        }
    }

    /**
     * Whether the file needs no migration. Before this write has migrated, a file too busy to say is
     * taken as not current: that is most often another server's first migration, which the caller
     * then waits for under the migration lock instead of spending its deadline retrying around it.
     */
    private boolean isCurrent(Connection connection, boolean busyMeansMigrating) {
        try {
            return SchemaMigration.isCurrent(Jooq.using(connection));
        } catch (RuntimeException e) {
            if (busyMeansMigrating && ReadFailures.reasonFor(e, file) == RegistryReason.LOCKED) {
                return false;
            }
            throw e;
        }
    }

    /** Refuses a FIFO, socket, device or directory before SQLite opens it or creates anything beside it. */
    private void requireRegularOrAbsent() {
        switch (RegistryFileKind.of(file)) {
            case NOT_A_FILE -> throw new RegistryStorageException(RegistryFileKind.refusal(file), null);
            case UNRESOLVABLE -> throw new RegistryStorageException(RegistryFileKind.unresolvable(file), null);
            default -> {
                // absent or a regular file: usable
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryStorageException("interrupted while waiting for a busy registry", e);
        }
    }

    private void createParentDirectories() {
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || Files.isDirectory(parent)) {
            return;
        }
        if (Files.exists(parent)) {
            throw new RegistryStorageException("registry " + file + ": " + parent + " is not a directory", null);
        }
        if (directories == Directories.MUST_EXIST) {
            throw new RegistryStorageException("registry " + file + ": directory " + parent + " does not exist "
                    + "(only the default location's directories are created; create it or choose another path)", null);
        }
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new RegistryStorageException("registry " + file + ": cannot create directory " + parent + ": "
                    + FileErrors.describe(e), e);
        }
    }

    private RegistryStorageException failure(String operation, Throwable cause) {
        return failure(operation, null, cause);
    }

    /** One line: the operation, the file, how it went (when there is more to say) and the cause's first line. */
    private RegistryStorageException failure(String operation, String how, Throwable cause) {
        // A library's wording ("Error while running ConnectionCallable") tells an operator nothing.
        String detail = ReadFailures.reasonFor(cause, file) == RegistryReason.CORRUPT
                ? "not a SQLite database, or a damaged one; nothing was changed"
                : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new RegistryStorageException("registry " + operation + " failed for " + file
                + (how == null ? "" : " (" + how + ")") + ": " + detail.lines().findFirst().orElse(""), cause);
    }

    private static void requirePositive(Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("retention window must be positive, got " + window);
        }
    }
}
