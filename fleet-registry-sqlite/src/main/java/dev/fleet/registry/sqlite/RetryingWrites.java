package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryReason;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The writer's transactions, each on a fresh connection, after migrating the file if it needs it
 * (and the policy migrates), retried with backoff while the registry answers busy, until the
 * policy's deadline has passed.
 */
final class RetryingWrites {

    private static final long FIRST_RETRY_PAUSE_MILLIS = 10;
    private static final long LONGEST_RETRY_PAUSE_MILLIS = 250;

    /** Where a write connects, how long it retries a busy registry, and how long it waits for a migration (zero: never migrates). */
    record Policy(DataSource source, Duration deadline, Duration migrationWait) {
        boolean migrates() {
            return !migrationWait.isZero();
        }
    }

    private final Path file;
    private final Runnable checkLocation;
    private final Consumer<Duration> migrateIfNeeded;

    /**
     * @param checkLocation refuses a path no registry can be made at, before each attempt
     * @param migrateIfNeeded migrates the file unless it turns out current under the migration lock,
     *     waiting that long for the lock
     */
    RetryingWrites(Path file, Runnable checkLocation, Consumer<Duration> migrateIfNeeded) {
        this.file = file;
        this.checkLocation = checkLocation;
        this.migrateIfNeeded = migrateIfNeeded;
    }

    /**
     * One IMMEDIATE transaction of {@code work}. The "is it current?" check shares the write's
     * connection, so a heartbeat on a current file opens one connection, not two.
     */
    <T> T write(String operation, Policy policy, ImmediateTransaction.Work<T> work) {
        long started = System.nanoTime();
        long pause = FIRST_RETRY_PAUSE_MILLIS;
        boolean migrated = false;
        for (int attempt = 1; ; attempt++) {
            try {
                checkLocation.run();
                try (Connection connection = policy.source().getConnection()) {
                    if (!policy.migrates() || isCurrent(connection, !migrated)) {
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
                migrateIfNeeded.accept(policy.migrationWait());
                migrated = true;
                started = System.nanoTime();
            } catch (SQLException | RuntimeException e) {
                // A busy registry met while migrating arrives wrapped in a RegistryStorageException:
                // it is as retryable as one met while writing.
                if (SqliteErrors.reasonFor(e, file) != RegistryReason.LOCKED) {
                    throw WriteFailures.of(file, operation, e);
                }
                long spent = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                long left = policy.deadline().toMillis() - spent;
                if (left <= 0) {
                    throw WriteFailures.failure(file, operation, "busy through " + attempt
                            + (attempt == 1 ? " attempt" : " attempts") + " over " + spent + " ms", e);
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
    private boolean isCurrent(Connection connection, boolean busyMeansMigrating) throws SQLException {
        try {
            return SchemaMigration.isCurrent(connection);
        } catch (SQLException | RuntimeException e) {
            if (busyMeansMigrating && SqliteErrors.reasonFor(e, file) == RegistryReason.LOCKED) {
                return false;
            }
            throw e;
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
}
