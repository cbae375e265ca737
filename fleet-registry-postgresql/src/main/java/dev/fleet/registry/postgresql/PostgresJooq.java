package dev.fleet.registry.postgresql;

import java.sql.Connection;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The one way this module obtains a {@link DSLContext}: jOOQ's PostgreSQL dialect over the generated
 * model of the shared table (generated once, from the SQLite migration of the same changelog), no
 * schema rendered (the connection's search path decides), and jOOQ's logo and tips kept off a
 * server's stderr.
 */
final class PostgresJooq {

    static {
        quietUnlessConfigured("org.jooq.no-logo");
        quietUnlessConfigured("org.jooq.no-tips");
    }

    private static final Settings SETTINGS = new Settings().withExecuteLogging(false).withRenderSchema(false);

    private PostgresJooq() {
    }

    /** A context on a connection the caller owns and closes. */
    static DSLContext using(Connection connection) {
        return DSL.using(connection, SQLDialect.POSTGRES, SETTINGS);
    }

    private static void quietUnlessConfigured(String property) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, "true");
        }
    }
}
