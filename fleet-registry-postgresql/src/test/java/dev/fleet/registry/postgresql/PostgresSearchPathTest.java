package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What another role that may create in a schema of the registry's database can make fleet run or read. Every
 * session's search path is {@code pg_catalog} alone and the table is named in its schema, so a function or
 * operator of another role's, however well its argument types match, never stands in for PostgreSQL's own
 * (it would run with the reader's or the writer's rights, and could answer as it likes: an audit opened the
 * gate past a live remote member with one), and a schema named for the reading role never shadows the table.
 */
class PostgresSearchPathTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    @Test
    void aFunctionAnotherRoleCreatedInPublicNeverStandsInForPostgresOwn() throws Exception {
        String database = "functions_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        // pg_catalog.pg_typeof takes "any": one of bigint is the better match for the pid column wherever public is
        // on the search path, as it is by default; and the writer's text compares would take one of (text, varchar).
        SERVER.postgres().execute(database,
                "CREATE FUNCTION public.pg_typeof(bigint) RETURNS regtype LANGUAGE plpgsql AS "
                        + "$$ BEGIN RAISE EXCEPTION 'another role''s pg_typeof ran'; END $$",
                "CREATE FUNCTION public.hijacked_eq(text, varchar) RETURNS boolean LANGUAGE plpgsql AS "
                        + "$$ BEGIN RAISE EXCEPTION 'another role''s = ran'; END $$",
                "CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = varchar, FUNCTION = public.hijacked_eq)");

        RegistryRead read = new PostgresRegistryReader(location).readAll();

        assertTrue(read.readable(), () -> read.toString());
        assertEquals(1, read.rows().size());
        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(1),
                5401).registration(), Optional.empty());
        new PostgresRegistryWriter(location).migrate();
        assertEquals(2, new PostgresRegistryReader(location).readAll().rows().size(), "the writer wrote, as itself");
    }

    /**
     * During a migration Liquibase's own statements run with the registry's schema on the search path, but
     * pg_catalog first: a function of another role's with the same signature as PostgreSQL's (Liquibase writes
     * its lock and history with NOW()) never stands in for it. It ran 14 times in a first migration, as the
     * migrating role, where Liquibase had put {@code public, pg_catalog} on the path itself.
     */
    @Test
    void aFirstMigrationNeverRunsAnotherRolesFunctionOfPostgresOwnSignature() throws Exception {
        String database = "first_" + DATABASES.incrementAndGet();
        PostgresLocation location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
        SERVER.postgres().execute(database, "CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'another role''s now() ran'; END $$");

        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(0),
                5400).registration(), Optional.empty());

        assertEquals(1, new PostgresRegistryReader(location).readAll().rows().size());
    }

    @Test
    void aSchemaNamedForTheReadingRoleDoesNotShadowTheRegistry() throws Exception {
        String database = "shadowed_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        String role = "reader_" + database;
        SERVER.postgres().admin("CREATE ROLE " + role + " LOGIN");
        // "$user" comes first on the default search path: a table in a schema of the role's name would be read.
        SERVER.postgres().execute(database, "GRANT SELECT ON public.mcp_server_runtimes TO " + role,
                "CREATE SCHEMA " + role, "GRANT USAGE ON SCHEMA " + role + " TO " + role,
                "CREATE TABLE " + role + ".mcp_server_runtimes (LIKE public.mcp_server_runtimes)",
                "GRANT SELECT ON " + role + ".mcp_server_runtimes TO " + role);
        PostgresLocation asReader = new PostgresLocation(role, location.host(), location.port(), location.database());

        RegistryRead read = new PostgresRegistryReader(asReader).readAll();

        assertTrue(read.readable(), () -> read.toString());
        assertEquals(1, read.rows().size(), "the registry's row, not the shadow's none");
    }

    /**
     * A registry another schema holds (made where a role's search path put it, before fleet named public) is neither
     * read as absent nor forked by a migration into a second, empty registry beside it: both say where it is and
     * how to move it.
     */
    @Test
    void aRegistryInAnotherSchemaIsNamedNotForked() throws Exception {
        String database = "elsewhere_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "CREATE SCHEMA old_home",
                "ALTER TABLE public.mcp_server_runtimes SET SCHEMA old_home");
        String moved = "schema old_home holds mcp_server_runtimes, and fleet keeps it in public: move it (ALTER TABLE "
                + "old_home.mcp_server_runtimes SET SCHEMA public, and Liquibase's databasechangelog and "
                + "databasechangeloglock with it)";

        assertEquals(new RegistryRead.Unreadable(RegistryReason.MISSING, "no table mcp_server_runtimes in public; "
                + moved), new PostgresRegistryReader(location).readAll());
        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new PostgresRegistryWriter(location).migrate());
        assertTrue(refused.getMessage().endsWith(moved + "; nothing was changed"), refused.getMessage());

        SERVER.postgres().execute(database, "ALTER TABLE old_home.mcp_server_runtimes SET SCHEMA public");
        assertEquals(1, new PostgresRegistryReader(location).readAll().rows().size(), "moved back, it reads");
    }

    private static PostgresLocation migrated(String database) {
        PostgresLocation location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(0),
                5400).registration(), Optional.empty());
        return location;
    }
}
