package dev.fleet.registry.schema;

import dev.fleet.domain.Failures;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import liquibase.Scope;
import liquibase.UpdateSummaryOutputEnum;
import liquibase.analytics.configuration.AnalyticsArgs;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.command.core.helpers.ShowSummaryArgument;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.ValidationFailedException;
import liquibase.lockservice.LockServiceFactory;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.structure.core.Table;
import liquibase.ui.LoggerUIService;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.impl.DSL;

/**
 * The registry's one Liquibase changelog, run the same way on either engine: one migration serves
 * SQLite and PostgreSQL, so the table, its columns and its indexes never drift apart. The caller
 * serialises fleet's migrations of one registry (a lock file on SQLite, an advisory lock on
 * PostgreSQL), so a changelog lock that fleet took and still holds now was left by a migration that
 * died, and is released first. Liquibase's lock table is shared with every other Liquibase user of the
 * file or schema, though: a lock another tool holds is never released, and the migration is refused
 * in one line naming its holder (fleet's own locks carry {@code #fleet} in {@code LOCKEDBY}).
 *
 * <p>Silence: a fleet server migrates right after binding stdio, where stdout carries protocol bytes
 * only, so Liquibase's UI goes to the logger, its update summary to the log, its command output
 * nowhere, and its JUL logger is quieted.
 */
public final class RegistryChangelog {

    /** Held strongly: JUL keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger LIQUIBASE_LOG = Logger.getLogger("liquibase");

    /** The {@code liquibase.hostDescription} fleet gives its changelog locks, unless the JVM was given one. */
    private static final String HOST_DESCRIPTION = "fleet";
    /** Of Liquibase's details of a history that differs, this many characters at most: one line of a report. */
    private static final int MOST_DETAIL = 400;

    /**
     * Liquibase's own two tables and the columns of each that it cannot do without (it adds the later ones to an
     * older history itself): a relation of either name without them is another tool's.
     */
    private static final Map<String, List<String>> BOOKKEEPING = Map.of(
            "databasechangelog", List.of("id", "author", "filename", "dateexecuted"),
            "databasechangeloglock", List.of("id", "locked", "lockgranted", "lockedby"));

    static {
        if (System.getProperty("liquibase.hostDescription") == null) {
            System.setProperty("liquibase.hostDescription", HOST_DESCRIPTION);
        }
        if (LIQUIBASE_LOG.getLevel() == null) {
            // Not even SEVERE: a failed change set is logged with a 70-line stack trace, and the
            // failure reaches the caller anyway, as one line (RegistryStorageException).
            LIQUIBASE_LOG.setLevel(Level.OFF);
        }
    }

    private RegistryChangelog() {
    }

    /** Runs every change set not yet run on {@code connection}'s database; its auto-commit is left as it was. */
    public static void update(Connection connection) throws Exception {
        update(connection, null);
    }

    /**
     * {@link #update(Connection)}, with Liquibase's tables and the registry's in {@code schema}, named so in
     * every statement (null: the connection's current schema). PostgreSQL's sessions name it: their search path
     * is pg_catalog alone.
     */
    public static void update(Connection connection, String schema) throws Exception {
        boolean autoCommit = connection.getAutoCommit();
        Map<String, Object> scope = new HashMap<>();
        scope.put(Scope.Attr.ui.name(), new LoggerUIService());
        scope.put(Scope.Attr.resourceAccessor.name(),
                new ClassLoaderResourceAccessor(RegistryChangelog.class.getClassLoader()));
        // Liquibase 4.30+ would otherwise phone home on every migration.
        scope.put(AnalyticsArgs.ENABLED.getKey(), Boolean.FALSE);
        try {
            Scope.child(scope, () -> {
                Database database = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(connection));
                if (schema != null) {
                    database.setDefaultSchemaName(schema);
                    database.setLiquibaseSchemaName(schema);
                }
                releaseFleetsOwnLock(connection, database, schema == null ? connection.getSchema() : schema);
                new CommandScope(UpdateCommandStep.COMMAND_NAME)
                        .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                        .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, RegistrySchema.CHANGELOG)
                        .addArgumentValue(ShowSummaryArgument.SHOW_SUMMARY_OUTPUT, UpdateSummaryOutputEnum.LOG)
                        .setOutput(OutputStream.nullOutputStream())
                        .execute();
            });
        } catch (Exception e) {
            ValidationFailedException invalid = Failures.chain(e).stream()
                    .filter(ValidationFailedException.class::isInstance).map(ValidationFailedException.class::cast)
                    .findFirst().orElse(null);
            if (invalid != null) {
                throw new IllegalStateException(historyMismatch(invalid), e);
            }
            throw e;
        } finally {
            // Liquibase leaves autoCommit=false on a connection it is lent; switching it back commits.
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * Why a table named as one of Liquibase's own in the connection's schema cannot be Liquibase's: a relation of
     * that name that is no table, a table that lacks a column Liquibase reads, or (on SQLite, where names match in
     * any case) one named in another case than Liquibase's; empty when they are absent or
     * Liquibase's. The migrations ask before they change anything: Liquibase itself would fail on such a table half
     * way, in words that mislead ("make sure that you have both read and write permissions").
     */
    public static Optional<String> foreignBookkeeping(Connection connection) throws SQLException {
        return foreignBookkeeping(connection, connection.getSchema());
    }

    /** {@link #foreignBookkeeping(Connection)} in {@code schema}, as {@link #update(Connection, String)} names it. */
    public static Optional<String> foreignBookkeeping(Connection connection, String schemaName) throws SQLException {
        DatabaseMetaData catalog = connection.getMetaData();
        boolean caseExact = catalog.storesLowerCaseIdentifiers(); // PostgreSQL's; SQLite's names match in any case
        String schema = literal(catalog, schemaName);
        try (ResultSet relations = catalog.getTables(null, schema, "%", null)) {
            while (relations.next()) {
                String name = relations.getString("TABLE_NAME");
                String bookkeeping = caseExact ? name : name.toLowerCase(Locale.ROOT);
                List<String> needed = BOOKKEEPING.get(bookkeeping);
                if (needed == null) {
                    continue;
                }
                String type = relations.getString("TABLE_TYPE");
                if (!"TABLE".equalsIgnoreCase(type)) {
                    return Optional.of(shown(name) + " is a " + String.valueOf(type).toLowerCase(Locale.ROOT)
                            + ", not Liquibase's table");
                }
                List<String> lacking = lacking(catalog, schema, name, needed);
                if (!lacking.isEmpty()) {
                    return Optional.of(shown(name) + " is not Liquibase's table (it lacks " + String.join(", ", lacking)
                            + ")");
                }
                String liquibases = caseExact ? bookkeeping : bookkeeping.toUpperCase(Locale.ROOT);
                if (!name.equals(liquibases)) {
                    // Liquibase looks for its table on SQLite by its exact name, and then fails to make it anew.
                    return Optional.of(shown(name) + " is not Liquibase's table (Liquibase names its own " + liquibases
                            + ")");
                }
            }
        }
        return Optional.empty();
    }

    /** {@code name} as a catalog pattern that matches it alone: its {@code _} and {@code %} escaped; null as null. */
    private static String literal(DatabaseMetaData catalog, String name) throws SQLException {
        String escape = catalog.getSearchStringEscape();
        if (name == null || escape == null || escape.isEmpty()) {
            return name;
        }
        return name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
    }

    /** Of {@code needed}, the columns the table lacks, in order ({@code schema} already a literal pattern). */
    private static List<String> lacking(DatabaseMetaData catalog, String schema, String table, List<String> needed)
            throws SQLException {
        Set<String> present = new HashSet<>();
        try (ResultSet columns = catalog.getColumns(null, schema, literal(catalog, table), "%")) {
            while (columns.next()) {
                present.add(columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return needed.stream().filter(column -> !present.contains(column)).toList();
    }

    /**
     * Liquibase's refusal of a history that differs from the changelog, in one line: its message is a
     * header line ("Validation Failed:") and indented details, of which a report keeps only the header.
     */
    private static String historyMismatch(ValidationFailedException invalid) {
        String details = String.valueOf(invalid.getMessage()).lines().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("Validation Failed"))
                .collect(Collectors.joining("; "));
        if (details.length() > MOST_DETAIL) {
            details = details.substring(0, MOST_DETAIL) + "…";
        }
        return "the registry's migration history (DATABASECHANGELOG) does not match fleet's changelog, as another "
                + "tool or a hand may leave it: " + details;
    }

    /**
     * Releases a changelog lock fleet left (a migration that died: the caller's lock serialises live
     * ones), which would otherwise make this one wait minutes; refuses at once while another tool holds
     * it, and touches nothing when none is held. The lock row is read here as text, in the schema
     * Liquibase uses, not by Liquibase, which fails on a LOCKGRANTED stored as text.
     */
    /** @param schema where Liquibase keeps its tables; SQLite has none (null) */
    private static void releaseFleetsOwnLock(Connection connection, Database database, String schema) throws Exception {
        String table = database.correctObjectName(database.getDatabaseChangeLogLockTableName(), Table.class);
        try (ResultSet tables = connection.getMetaData().getTables(null, schema, table, null)) {
            if (!tables.next()) {
                return; // never migrated by Liquibase: no lock to hold
            }
        }
        String ours = "#" + System.getProperty("liquibase.hostDescription") + " (";
        Field<String> locked = DSL.field(DSL.unquotedName("locked")).cast(String.class);
        Field<String> lockedBy = DSL.field(DSL.unquotedName("lockedby")).cast(String.class);
        boolean oursHeld = false;
        for (Record2<String, String> held : DSL.using(connection).select(locked, lockedBy)
                .from(DSL.table(schema == null ? DSL.unquotedName(table) : DSL.unquotedName(schema, table))).fetch()) {
            String by = held.value2() == null ? "" : held.value2();
            boolean taken = "1".equals(held.value1()) || "true".equalsIgnoreCase(held.value1())
                    || "t".equalsIgnoreCase(held.value1());
            if (taken && !by.contains(ours)) {
                throw new IllegalStateException("another tool holds the registry's Liquibase lock ("
                        + table + ", locked by '" + shown(by) + "'): retry once its migration is done; if none "
                        + "runs, clear the lock with that tool");
            }
            oursHeld |= taken;
        }
        if (oursHeld) {
            LockServiceFactory.getInstance().getLockService(database).forceReleaseLock();
        }
    }

    /** Another tool's text on one line, and short: control characters as '?', at most 100 characters. */
    private static String shown(String text) {
        StringBuilder shown = new StringBuilder();
        text.codePoints().limit(100).forEach(c -> shown.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return text.codePointCount(0, text.length()) > 100 ? shown + "…" : shown.toString();
    }
}
