package dev.fleet.registry.sqlite;

import java.sql.Connection;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The one way this module obtains a {@link DSLContext}. jOOQ prints a logo and tips on stderr the
 * first time it renders SQL, and logs "database version is supported" at INFO on first execution;
 * a fleet server's stderr is its operator log, so all three are switched off here, before any SQL
 * can run (an explicit setting by the application wins). Warnings still get through.
 */
final class Jooq {

    /** Held strongly: JUL keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger JOOQ_LOG = Logger.getLogger("org.jooq");

    static {
        quietUnlessConfigured("org.jooq.no-logo");
        quietUnlessConfigured("org.jooq.no-tips");
        if (JOOQ_LOG.getLevel() == null) {
            JOOQ_LOG.setLevel(Level.WARNING);
        }
    }

    private static final Settings SETTINGS = new Settings()
            .withExecuteLogging(false)
            .withRenderSchema(false);

    private Jooq() {
    }

    /** A context without a connection: it renders SQL and executes nothing. */
    static DSLContext rendering() {
        return DSL.using(SQLDialect.SQLITE, SETTINGS);
    }

    /** A context on a connection the caller owns and closes. */
    static DSLContext using(Connection connection) {
        return DSL.using(connection, SQLDialect.SQLITE, SETTINGS);
    }

    private static void quietUnlessConfigured(String property) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, "true");
        }
    }
}
