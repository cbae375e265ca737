package dev.fleet.registry.postgresql;

import java.sql.Connection;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.MappedSchema;
import org.jooq.conf.RenderMapping;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The one way this module obtains a {@link DSLContext}: jOOQ's PostgreSQL dialect over the generated
 * model of the shared table (generated once, from the SQLite migration of the same changelog), the table
 * always named in its schema, {@value #SCHEMA} ({@link PostgresLocation} pins every session's search path to
 * {@code pg_catalog} alone, but for Liquibase's own statements in a migration ({@link PostgresMigration}), so no
 * other role's schema can shadow the table, a function or an operator), and jOOQ's logo and tips kept off a
 * server's stderr.
 */
final class PostgresJooq {

    static {
        quietUnlessConfigured("org.jooq.no-logo");
        quietUnlessConfigured("org.jooq.no-tips");
    }

    /** Where the registry's table lives in its database, whatever a role's or database's search path says. */
    static final String SCHEMA = "public";

    /** The generated model's schema has no name (it was read from SQLite): rendered as {@link #SCHEMA}. */
    private static final Settings SETTINGS = new Settings().withExecuteLogging(false).withRenderSchema(true)
            .withRenderMapping(new RenderMapping().withSchemata(new MappedSchema().withInput("").withOutput(SCHEMA)));

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
