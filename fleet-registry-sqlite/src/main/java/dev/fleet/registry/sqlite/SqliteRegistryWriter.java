package dev.fleet.registry.sqlite;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.registry.schema.RegistryWrites;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;

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
    private final RetryingWrites.Policy serving;
    /** Stops: never migrate, and give up soon enough for the server to exit within 2 s. */
    private final RetryingWrites.Policy stopping;
    private final RetryingWrites writes;

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
        this.serving = new RetryingWrites.Policy(dataSource, Objects.requireNonNull(writeDeadline, "writeDeadline"),
                SERVER_MIGRATION_WAIT);
        this.stopping = new RetryingWrites.Policy(SqliteFiles.writer(file, stopTimeout), stopTimeout, Duration.ZERO);
        this.writes = new RetryingWrites(file, this::checkLocation, lockWait -> migrate(false, lockWait));
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
        RegistryPath.check(file, directories);
    }

    private void migrate(boolean always, Duration lockWait) {
        checkLocation();
        try {
            SchemaMigration.migrate(file, dataSource, always, lockWait);
        } catch (Exception e) {
            throw WriteFailures.of(file, "migrate", e);
        }
    }

    /**
     * Gets a first registration ready without writing anything: loads the driver, its native library
     * and jOOQ, and reads the file's schema state read-only when it is a regular file. A server calls
     * this on another core while its transport is being built, so that the registration which follows
     * starts at once rather than paying for all that first. Optional; never throws, never waits for a
     * lock.
     */
    public void prepare() {
        try {
            if (RegistryFileKind.of(file) == RegistryFileKind.REGULAR) {
                try (Connection connection = SqliteFiles.readOnly(file, Duration.ZERO).getConnection()) {
                    SchemaMigration.isCurrent(connection);
                }
            } else {
                SqliteRows.ready();
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
        Objects.requireNonNull(at, "at");
        return updateRow("heartbeat", serving, runtimeId,
                ctx -> RegistryWrites.heartbeat(ctx, SqliteEngine.INSTANCE, runtimeId, at));
    }

    /** False, creating nothing, when the registry file is gone: a stop never brings a registry back. */
    @Override
    public boolean markStopped(String runtimeId, Instant at) {
        Objects.requireNonNull(at, "at");
        return updateRow("mark stopped", stopping, runtimeId, ctx -> RegistryWrites.markStopped(ctx, runtimeId, at));
    }

    /** Runs {@code update} on one existing row; false when there is no such row, or no registry at all. */
    private boolean updateRow(String operation, RetryingWrites.Policy policy, String runtimeId,
            Function<DSLContext, Boolean> update) {
        Objects.requireNonNull(runtimeId, "runtimeId");
        if (RegistryFileKind.of(file) == RegistryFileKind.ABSENT) {
            return false;
        }
        return writes.write(operation, policy, connection -> update.apply(SqliteJooq.using(connection)));
    }

    /** Stores the row in one IMMEDIATE transaction ({@link RegistrationTransaction}) and interprets it read back. */
    private Registration store(RegistryRow row, Optional<Duration> retention) {
        String runtimeId = row.runtimeId();
        RegistryRow stored = writes.write("register", serving, connection -> RegistrationTransaction.store(connection, row,
                retention.map(window -> clock.instant().minus(window))));
        InterpretedRow interpreted = stored == null ? null : stored.interpret();
        if (interpreted instanceof Registration registration) {
            return registration;
        }
        throw new RegistryStorageException("register: " + runtimeId + " did not read back from " + file + " ("
                + (interpreted == null ? "no row" : ((MalformedRegistration) interpreted).reason().code()) + ")",
                null);
    }

    private static void requirePositive(Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("retention window must be positive, got " + window);
        }
    }
}
