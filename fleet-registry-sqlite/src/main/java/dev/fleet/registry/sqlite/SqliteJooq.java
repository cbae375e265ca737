package dev.fleet.registry.sqlite;

import java.sql.Connection;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The one way this module obtains a {@link DSLContext}: jOOQ's SQLite dialect over the generated
 * model of the registry's table, no schema rendered, no execute logging, and jOOQ's logo, tips and
 * version note kept off stderr (a server's stderr is its client's log; an assessment's, the operator's).
 */
final class SqliteJooq {

    static {
        quietUnlessConfigured("org.jooq.no-logo", "true");
        quietUnlessConfigured("org.jooq.no-tips", "true");
        // jOOQ's one-line note that SQLite's version suits the dialect, logged at INFO on first use where
        // no SLF4J binding decides (java.util.logging prints it). Above WARN, jOOQ skips the check too.
        quietUnlessConfigured("org.jooq.log.org.jooq.impl.DefaultExecuteContext.logVersionSupport", "ERROR");
    }

    private static final Settings SETTINGS = new Settings().withExecuteLogging(false).withRenderSchema(false)
            .withRenderCatalog(false);

    private SqliteJooq() {
    }

    /** A context on a connection the caller owns and closes; jOOQ leaves its transactions to the caller. */
    static DSLContext using(Connection connection) {
        return DSL.using(connection, SQLDialect.SQLITE, SETTINGS);
    }

    private static void quietUnlessConfigured(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
