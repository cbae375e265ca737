package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.sql.Connection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What another role made of the registry's table on PostgreSQL. A view by its name is neither read nor migrated:
 * its functions would run with the reader's rights, which a read-only transaction does not confine (an assessment
 * ran {@code COPY ... TO PROGRAM} through one). Columns of fleet's own that someone dropped are added back by the
 * next migration, as on SQLite: without {@code host_id}, another host's live member read as exited.
 */
class PostgresForeignTablesTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    @Test
    void aViewByTheTablesNameIsNeitherReadNorMigrated() throws Exception {
        String database = "views_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes RENAME TO real_runtimes",
                "CREATE VIEW mcp_server_runtimes AS SELECT * FROM real_runtimes");

        RegistryRead.Unreadable refused = assertInstanceOf(RegistryRead.Unreadable.class,
                new PostgresRegistryReader(location).readAll());
        assertEquals(RegistryReason.SCHEMA_MISSING, refused.reason());
        assertTrue(refused.detail().startsWith("mcp_server_runtimes is a view, not a table"), refused.detail());
        RegistryStorageException notMigrated = assertThrows(RegistryStorageException.class,
                () -> new PostgresRegistryWriter(location).migrate());
        assertTrue(notMigrated.getMessage().contains("mcp_server_runtimes is a view, not a table (another tool made it); "
                + "nothing was changed"), notMigrated.getMessage());
    }

    /**
     * A table another tool made with a text pid and timestamps of PostgreSQL's own type: fleet's servers cannot write
     * it ("operator does not exist: text = bigint"), so the migration refuses it, naming the columns, as it refuses a
     * table lacking columns; it said "at schema version 7", and every server then failed to register.
     */
    @Test
    void aTableOfColumnsFleetCannotWriteIsRefusedByTheMigration() throws Exception {
        String database = "typed_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN pid TYPE text",
                "ALTER TABLE mcp_server_runtimes ALTER COLUMN registered_at TYPE timestamptz USING now()",
                "ALTER TABLE mcp_server_runtimes ALTER COLUMN profile TYPE varchar(40)");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> PostgresRegistryWriter.forOperator(location).migrate());
        assertTrue(refused.getMessage().contains("declares pid text, registered_at timestamp with time zone, which "
                + "fleet's servers cannot write"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith("nothing was changed"), refused.getMessage());

        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN pid TYPE bigint USING 1",
                "ALTER TABLE mcp_server_runtimes ALTER COLUMN registered_at TYPE text");
        PostgresRegistryWriter.forOperator(location).migrate();
        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(0),
                5600).registration(), Optional.empty());
    }

    /**
     * A {@code smallint} pid holds no pid past 32767, where Linux numbers processes up to 4194304 (systemd's
     * pid_max on 64-bit hosts): the migration called such a table current, and the registration of every server
     * whose pid is larger then failed ("smallint out of range").
     */
    @Test
    void aSmallintPidIsRefusedByTheMigration() throws Exception {
        String database = "smallint_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN pid TYPE smallint");
        RegistryStorageException unwritten = assertThrows(RegistryStorageException.class,
                () -> new PostgresRegistryWriter(location).register(RowBuilder.registered(
                        Roster.defaultRoster().members().get(0), 40_000).registration(), Optional.empty()));
        assertTrue(unwritten.getMessage().contains("out of range"), unwritten.getMessage());

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> PostgresRegistryWriter.forOperator(location).migrate());
        assertTrue(refused.getMessage().contains("declares pid smallint, which fleet's servers cannot write"),
                refused.getMessage());
    }

    /**
     * A table whose reading runs functions another role wrote is not read either: row-level security (its policies'
     * expressions run for the reader), or a column of fleet's of a type not PostgreSQL's own (a cast may run one).
     */
    @Test
    void aTableWhosePoliciesOrTypesRunFunctionsIsNotRead() throws Exception {
        String database = "policies_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes ENABLE ROW LEVEL SECURITY");
        RegistryRead.Unreadable policies = assertInstanceOf(RegistryRead.Unreadable.class,
                new PostgresRegistryReader(location).readAll());
        assertEquals(RegistryReason.SCHEMA_MISSING, policies.reason());
        assertTrue(policies.detail().startsWith("mcp_server_runtimes is a table with row-level security"),
                policies.detail());

        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes DISABLE ROW LEVEL SECURITY",
                "CREATE DOMAIN role_text AS text", "ALTER TABLE mcp_server_runtimes ALTER COLUMN role TYPE role_text");
        RegistryRead.Unreadable typed = assertInstanceOf(RegistryRead.Unreadable.class,
                new PostgresRegistryReader(location).readAll());
        assertTrue(typed.detail().startsWith("mcp_server_runtimes is a table whose column role is of type public.role_text, "
                + "not one of PostgreSQL's own"), typed.detail());

        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN role TYPE text");
        assertEquals(1, new PostgresRegistryReader(location).readAll().rows().size(), "a plain table reads");
    }

    /**
     * A column named in another case by quoting ({@code "Pid"}) is not {@code pid}, which every statement of fleet's
     * names quoted: the read says the column is missing, and the migration refuses before it changes anything (it
     * read the column as present, then failed half way on "column pid does not exist").
     */
    @Test
    void aColumnQuotedInAnotherCaseIsMissing() throws Exception {
        String database = "quoted_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes RENAME COLUMN pid TO \"Pid\"");

        RegistryRead.Unreadable refused = assertInstanceOf(RegistryRead.Unreadable.class,
                new PostgresRegistryReader(location).readAll());
        assertEquals(new RegistryRead.Unreadable(RegistryReason.SCHEMA_MISSING, "lacks columns pid"),
                refused);
        RegistryStorageException notMigrated = assertThrows(RegistryStorageException.class,
                () -> new PostgresRegistryWriter(location).migrate());
        assertTrue(notMigrated.getMessage().contains("lacks columns pid (another tool made it); nothing was changed"),
                notMigrated.getMessage());
    }

    /** A row another role's trigger swallows is a registration that failed, said in one line (it was a NullPointerException). */
    @Test
    void aRegistrationATriggerSwallowsFailsSayingSo() throws Exception {
        String database = "swallowed_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database,
                "CREATE FUNCTION public.swallow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
                "CREATE TRIGGER swallow BEFORE INSERT ON mcp_server_runtimes FOR EACH ROW EXECUTE FUNCTION public.swallow()");

        RegistryStorageException failed = assertThrows(RegistryStorageException.class, () -> new PostgresRegistryWriter(
                location).register(RowBuilder.registered(Roster.defaultRoster().members().get(1), 5401).registration(),
                        Optional.empty()));

        assertTrue(failed.getMessage().endsWith("did not read back (no row: does a trigger on mcp_server_runtimes "
                + "drop it?)"), failed.getMessage());
    }

    /**
     * The table as another tool made it, with indexes of the names fleet gives its own, and no migration history:
     * migrated, where "relation idx_mcp_server_runtimes_pid already exists" failed it, and every server's
     * registration after it, for good.
     */
    @Test
    void aTableWhoseIndexesAnotherToolMadeIsMigrated() throws Exception {
        String database = "indexed_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "DROP TABLE databasechangelog", "DROP TABLE databasechangeloglock");

        new PostgresRegistryWriter(location).migrate();

        assertEquals(1, new PostgresRegistryReader(location).readAll().rows().size(), "the row is kept");
    }

    @Test
    void ownColumnsSomeoneDroppedAreAddedBackByTheNextMigration() throws Exception {
        String database = "dropped_" + DATABASES.incrementAndGet();
        PostgresLocation location = migrated(database);
        SERVER.postgres().execute(database, "ALTER TABLE mcp_server_runtimes DROP COLUMN host_id, DROP COLUMN endpoint");
        try (Connection connection = SERVER.postgres().connect(database)) {
            Set<String> columns = PostgresEngine.columnsOf(connection);
            assertTrue(!columns.contains("host_id") && !columns.contains("endpoint"), columns.toString());
        }

        new PostgresRegistryWriter(location).migrate();

        try (Connection connection = SERVER.postgres().connect(database)) {
            Set<String> columns = PostgresEngine.columnsOf(connection);
            assertTrue(columns.contains("host_id") && columns.contains("endpoint"), columns.toString());
        }
        assertEquals(1, new PostgresRegistryReader(location).readAll().rows().size(), "the row is kept");
    }

    /**
     * Liquibase's table names in the schema, taken by another tool in its own shape: the migration is refused in
     * fleet's words before it changes anything (Liquibase failed half way, telling the operator to check the table's
     * permissions).
     */
    @Test
    void aChangelogTableOfAnotherToolsShapeIsRefusedAndNothingChanges() throws Exception {
        String database = "bookkeeping_" + DATABASES.incrementAndGet();
        PostgresLocation location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
        SERVER.postgres().execute(database, "CREATE TABLE databasechangelog (entry integer)");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new PostgresRegistryWriter(location).migrate());

        assertTrue(refused.getMessage().contains("databasechangelog is not Liquibase's table (it lacks id, author, "
                + "filename, dateexecuted) (another tool made it); nothing was changed"), refused.getMessage());
        try (Connection connection = SERVER.postgres().connect(database)) {
            assertEquals(Set.of(), PostgresEngine.columnsOf(connection), "no registry table was made");
        }
    }

    private static PostgresLocation migrated(String database) {
        PostgresLocation location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(0),
                5400).registration(), Optional.empty());
        return location;
    }
}
