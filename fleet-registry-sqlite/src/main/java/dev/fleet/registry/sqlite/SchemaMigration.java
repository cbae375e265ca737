package dev.fleet.registry.sqlite;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.keyword;
import static org.jooq.impl.DSL.lower;
import static org.jooq.impl.DSL.quotedName;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.unquotedName;

import dev.fleet.registry.schema.RegistryChangelog;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistrySchema;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Runs the changelog, one migration at a time per registry file.
 *
 * <p>The changelog itself is the schema module's ({@link RegistryChangelog}), silent as stdio needs.
 *
 * <p>One at a time: servers started together all find a fresh file unmigrated. Left to Liquibase's
 * own changelog lock they deadlock: a waiting Liquibase keeps its IMMEDIATE transaction (and so
 * SQLite's write lock) open while it polls, so the holder can never release. Migrations are
 * therefore serialised by {@link MigrationLock}, with a bounded wait, and each re-checks under the
 * lock whether another has already done the work.
 */
final class SchemaMigration {

    /** The tables the quick check reads: fleet's and Liquibase's, as a migration reads them. */
    private static final List<String> CHECKED = List.of(SqliteRows.TABLE, "databasechangelog", "databasechangeloglock");

    private SchemaMigration() {
    }

    /**
     * True when the file is in WAL mode, has the table with every column (this project's own too) and
     * is at our schema version or later: then a writer needs no migration, and Liquibase stays unloaded.
     */
    static boolean isCurrent(Connection connection) throws SQLException {
        return SchemaCatalog.isWal(connection) && hasSchema(connection, TableColumns.of(connection));
    }

    private static boolean hasSchema(Connection connection, TableColumns columns) throws SQLException {
        return columns.tableExists() && columns.missingRequired().isEmpty() && columns.missingOwn().isEmpty()
                && SchemaCatalog.userVersion(connection) >= RegistrySchema.SCHEMA_VERSION;
    }

    /**
     * Puts the file in WAL mode, runs the changelog (which adds this project's own columns to a table
     * another tool made without them) and raises user_version. A table that lacks any other column is
     * refused, naming them, before anything is changed: claiming a version for a table no conforming
     * server can write would only move the failure elsewhere.
     *
     * @param always false to skip the changelog when the file turns out to have the schema once the
     *     lock is held (another server migrated it meanwhile)
     * @param lockWait how long to wait for another migration of the same file
     * @throws RegistryStorageException when the table lacks required columns, or the lock stays held
     */
    static void migrate(Path registry, DataSource dataSource, boolean always, Duration lockWait) throws Exception {
        try (MigrationLock lock = MigrationLock.acquire(registry, lockWait);
                Connection connection = dataSource.getConnection()) {
            if (SchemaCatalog.isView(connection, SqliteRows.TABLE)) {
                // Liquibase would fail on it half way, with a stack trace at SEVERE.
                throw new RegistryStorageException("registry " + registry + " cannot be migrated: " + SqliteRows.TABLE
                        + " is a view, not a table (another tool made it); nothing was changed", null);
            }
            TableColumns columns = TableColumns.of(connection);
            if (columns.tableExists() && !columns.missingRequired().isEmpty()) {
                throw new RegistryStorageException("registry " + registry + " cannot be migrated: "
                        + SqliteRows.describeMissing(columns.missingRequired()) + " (another tool made it); "
                        + "nothing was changed", null);
            }
            List<String> notKept = SchemaCatalog.wholeNumbersNotKept(connection);
            if (!notKept.isEmpty()) {
                throw new RegistryStorageException("registry " + registry + " cannot be migrated: " + SqliteRows.TABLE
                        + " declares " + String.join(", ", notKept) + ", which keeps a pid as other than a whole "
                        + "number, so every registration would read back as malformed (another tool made it); "
                        + "nothing was changed", null);
            }
            Optional<String> foreign = RegistryChangelog.foreignBookkeeping(connection);
            if (foreign.isPresent()) {
                throw new RegistryStorageException("registry " + registry + " cannot be migrated: " + foreign.get()
                        + " (another tool made it); nothing was changed", null);
            }
            if (always) {
                refuseDamaged(registry, connection);
            }
            enableWal(connection);
            if (always || !hasSchema(connection, columns)) {
                RegistryChangelog.update(connection);
                addOwnColumnsStillMissing(connection);
                raiseUserVersion(connection, RegistrySchema.SCHEMA_VERSION);
            }
        }
    }

    /**
     * {@code registry migrate} (not a server's first write, which a reader's own check covers) refuses a file
     * whose pages are damaged: the schema it reads may be whole while rows are not, and a migration that said
     * "at schema version N" over it would send the operator on to servers whose every read fails as corrupt.
     * SQLite's quick check reads each table named, the ones fleet reads and writes ({@link #CHECKED}), never the
     * whole file: another tool's tables beside them are no read of fleet's, and a check of every page took 33 s for a
     * 2 GB file (cold cache, the migration lock held all along), growing with the file.
     */
    private static void refuseDamaged(Path registry, Connection connection) {
        DSLContext ctx = SqliteJooq.using(connection);
        Field<String> name = field(unquotedName("name"), String.class);
        for (String table : ctx.select(name).from(table(unquotedName("sqlite_schema")))
                .where(field(unquotedName("type"), String.class).eq(inline("table")))
                .and(lower(name).in(CHECKED.stream().map(DSL::inline).toList()))
                .orderBy(name).fetch(name)) {
            // A pragma takes no bind value: the name is quoted, one of CHECKED in some case.
            String verdict = ctx.resultQuery("PRAGMA quick_check({0})", quotedName(table)).fetchAny(0, String.class);
            if (!"ok".equals(verdict)) {
                throw new RegistryStorageException("registry " + registry + " cannot be migrated: it is damaged "
                        + "(SQLite's quick check: " + firstProblem(verdict) + "); nothing was changed", null);
            }
        }
    }

    /** The quick check's first problem on one line, at most 200 characters: it reports one per line. */
    private static String firstProblem(String verdict) {
        String line = String.valueOf(verdict).replaceAll("\\*\\*\\* in database main \\*\\*\\*\\s*", "").strip()
                .lines().findFirst().orElse("no answer");
        return line.length() <= 200 ? line : line.substring(0, 200) + "…";
    }

    /**
     * The changelog adds this project's columns once per file; a table another tool re-created since
     * lacks them again, and Liquibase would not run those change sets twice. Additive and idempotent.
     */
    private static void addOwnColumnsStillMissing(Connection connection) {
        DSLContext ctx = SqliteJooq.using(connection);
        for (RegistryColumn column : TableColumns.of(connection).missingOwn()) {
            // As the changelog adds them (names unquoted, SQLite's type names), so the table's SQL
            // reads the same whichever added a column. DDL takes no bind values: the parts are constants.
            ctx.query("ALTER TABLE {0} ADD COLUMN {1} {2}", unquotedName(SqliteRows.TABLE),
                    unquotedName(column.sqlName()), keyword(column.sqlType())).execute();
        }
    }

    /**
     * Switches the file to WAL, which is persistent. Done once, by the migration under its lock, not
     * on every connection: servers opening a fresh file together and each switching it fail at once
     * with SQLITE_BUSY (each holds a read lock while asking for the write lock), whatever the busy timeout.
     */
    private static void enableWal(Connection connection) {
        SchemaCatalog.first(SqliteJooq.using(connection), "PRAGMA journal_mode = WAL");
    }

    /** Raises {@code user_version} to {@code version}; a higher one (a newer control-plane schema) is kept. */
    private static void raiseUserVersion(Connection connection, int version) throws SQLException {
        ImmediateTransaction.run(connection, tx -> {
            if (SchemaCatalog.userVersion(tx) < version) {
                // A pragma takes no bind value: the version, an int constant, is inlined by the template.
                SqliteJooq.using(tx).query("PRAGMA user_version = {0}", inline(version)).execute();
            }
            return null;
        });
    }
}
