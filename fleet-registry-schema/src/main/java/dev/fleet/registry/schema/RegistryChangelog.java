package dev.fleet.registry.schema;

import java.io.OutputStream;
import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
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
import liquibase.lockservice.LockServiceFactory;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;

/**
 * The registry's one Liquibase changelog, run the same way on either engine: one migration serves
 * SQLite and PostgreSQL, so the table, its columns and its indexes never drift apart. The caller
 * serialises migrations of one registry (a lock file on SQLite, an advisory lock on PostgreSQL), so a
 * changelog lock still taken now was left by a migration that died and is released first.
 *
 * <p>Silence: a fleet server migrates right after binding stdio, where stdout carries protocol bytes
 * only, so Liquibase's UI goes to the logger, its update summary to the log, its command output
 * nowhere, and its JUL logger is quieted.
 */
public final class RegistryChangelog {

    /** Held strongly: JUL keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger LIQUIBASE_LOG = Logger.getLogger("liquibase");

    static {
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
                // A changelog lock still taken was left by a migration that died (the caller's lock
                // serialises live ones), and would otherwise make this one wait minutes.
                LockServiceFactory.getInstance().getLockService(database).forceReleaseLock();
                new CommandScope(UpdateCommandStep.COMMAND_NAME)
                        .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                        .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, RegistrySchema.CHANGELOG)
                        .addArgumentValue(ShowSummaryArgument.SHOW_SUMMARY_OUTPUT, UpdateSummaryOutputEnum.LOG)
                        .setOutput(OutputStream.nullOutputStream())
                        .execute();
            });
        } finally {
            // Liquibase leaves autoCommit=false on a connection it is lent; switching it back commits.
            connection.setAutoCommit(autoCommit);
        }
    }
}
