package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.schema.RegistrySchema;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaMigrationTest {

    private static final RosterMember AUTHOR = Roster.defaultRoster().members().get(0);

    /** The contract's columns: name, declared type, NOT NULL, primary key. */
    private static final List<List<Object>> CONTRACT_COLUMNS = List.of(
            List.of("runtime_id", "TEXT", 1, 1),
            List.of("namespace", "TEXT", 1, 0),
            List.of("profile", "TEXT", 0, 0),
            List.of("role", "TEXT", 0, 0),
            List.of("remote", "TEXT", 0, 0),
            List.of("org", "TEXT", 0, 0),
            List.of("repo", "TEXT", 0, 0),
            List.of("repository_root", "TEXT", 0, 0),
            List.of("pid", "INTEGER", 1, 0),
            List.of("cohort_id", "TEXT", 0, 0),
            List.of("cohort_source", "TEXT", 1, 0),
            List.of("client_provenance", "TEXT", 0, 0),
            List.of("boot_id", "TEXT", 0, 0),
            List.of("process_started_at", "TEXT", 0, 0),
            List.of("startup_head", "TEXT", 0, 0),
            List.of("transport", "TEXT", 0, 0),
            List.of("status", "TEXT", 1, 0),
            List.of("registered_at", "TEXT", 1, 0),
            List.of("last_heartbeat_at", "TEXT", 1, 0),
            List.of("stopped_at", "TEXT", 0, 0),
            List.of("pid_namespace", "TEXT", 0, 0),
            List.of("endpoint", "TEXT", 0, 0),
            List.of("parent_pid", "INTEGER", 0, 0),
            List.of("parent_started_at", "TEXT", 0, 0),
            List.of("host_id", "TEXT", 0, 0),
            List.of("server_command", "TEXT", 0, 0),
            List.of("server_pid", "INTEGER", 0, 0),
            List.of("server_started_at", "TEXT", 0, 0));
    /** The columns schema version 7 added, and the change sets that add them. */
    private static final List<String> VERSION_7_COLUMNS = List.of("server_command", "server_pid", "server_started_at");

    @TempDir
    Path dir;

    @Test
    void everyChangeSetIsRecordedUnderThePathTheChangelogHadBeforeItsModuleSoOldRegistriesAreNotMigratedAgain()
            throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);

        // Liquibase knows a change set by id, author and this path: a registry migrated when the changelog
        // lived in the SQLite module holds it, and a new path would make every change set run again.
        assertEquals(List.of(List.of("dev/fleet/registry/sqlite/db/changelog.xml")), RawSqlite.query(file,
                "SELECT DISTINCT filename FROM DATABASECHANGELOG"));
    }

    @Test
    void aFreshFileGetsTheTableItsIndexesAndSchemaVersionSeven() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);

        assertEquals(7, RegistrySchema.SCHEMA_VERSION);
        assertEquals(RegistrySchema.SCHEMA_VERSION, RawSqlite.userVersion(file));
        assertEquals(CONTRACT_COLUMNS, RawSqlite.query(file,
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('mcp_server_runtimes') ORDER BY cid"));
        assertEquals(Map.of(
                        "idx_mcp_server_runtimes_pid", List.of("pid"),
                        "idx_mcp_server_runtimes_status", List.of("status"),
                        "idx_mcp_server_runtimes_namespace_profile", List.of("namespace", "profile")),
                indexColumns(file));
        assertEquals(List.of(List.of("DATABASECHANGELOG"), List.of("DATABASECHANGELOGLOCK"),
                        List.of("mcp_server_runtimes")),
                RawSqlite.query(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"));
        assertEquals(RegistryRead.of(List.of()), new SqliteRegistryReader(file).readAll());
    }

    @Test
    void otherControlPlaneTablesAndTheirRowsAreLeftExactlyAsTheyWere() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file,
                "CREATE TABLE sessions (session_id TEXT PRIMARY KEY, role TEXT NOT NULL, profile TEXT, "
                        + "started_at TEXT)",
                "CREATE INDEX idx_sessions_role ON sessions(role)",
                "INSERT INTO sessions VALUES ('s-a', 'author', 'prgs-author', '2026-07-28T01:00:00Z')",
                "INSERT INTO sessions VALUES ('s-b', 'reviewer', NULL, NULL)",
                "PRAGMA user_version = 5");
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);

        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        writer.register(RowBuilder.registered(AUTHOR, 41000).registration(), Optional.of(RegistryWriter.DEFAULT_RETENTION));

        Map<String, List<List<Object>>> after = RawSqlite.dump(file);
        assertEquals(before.get("sessions"), after.get("sessions"));
        assertEquals(sessionSchema(before), sessionSchema(after));
        assertEquals(7, RawSqlite.userVersion(file));
        assertEquals(1, new SqliteRegistryReader(file).read(RegistrationStatus.RUNNING).rows().size());
    }

    @Test
    void migratingAMigratedFileAgainChangesNothing() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE TABLE sessions (session_id TEXT PRIMARY KEY)",
                "INSERT INTO sessions VALUES ('s-a')");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        writer.register(RowBuilder.registered(AUTHOR, 41001).registration(), Optional.empty());
        Map<String, List<List<Object>>> once = RawSqlite.dump(file);

        writer.migrate();

        assertEquals(once, RawSqlite.dump(file));
    }

    @Test
    void aChangelogLockLeftByAMigrationThatDiedDoesNotBlockTheNextOne() throws Exception {
        Path file = ScratchRegistry.in(dir);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        holdChangelogLock(file, "a-host#fleet (10.0.0.7)");
        RawSqlite.execute(file, "DROP INDEX idx_mcp_server_runtimes_status", "PRAGMA user_version = 5");

        writer.register(RowBuilder.registered(AUTHOR, 41003).registration(), Optional.empty());

        assertEquals(List.of(List.of(0)), RawSqlite.query(file, "SELECT LOCKED FROM DATABASECHANGELOGLOCK"));
        assertAtTheLatestVersionWithOneRow(file);
    }

    /**
     * Liquibase's lock table is every Liquibase user's of the file: a lock another tool holds is its
     * migration under way, never released by fleet (it was, and two migrations could then run at once).
     * The migration is refused in one line naming the holder, and the lock is left as it was.
     */
    @Test
    void aChangelogLockAnotherToolHoldsIsLeftAndTheMigrationRefusedNamingIt() throws Exception {
        Path file = ScratchRegistry.in(dir);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        holdChangelogLock(file, "other-control-plane-tool (pid 4242)");
        RawSqlite.execute(file, "PRAGMA user_version = 5");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class, writer::migrate);

        assertTrue(refused.getMessage().contains("another tool holds the registry's Liquibase lock")
                && refused.getMessage().contains("other-control-plane-tool (pid 4242)"), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
        assertEquals(List.of(List.of(1, "other-control-plane-tool (pid 4242)")),
                RawSqlite.query(file, "SELECT LOCKED, LOCKEDBY FROM DATABASECHANGELOGLOCK"));
    }

    /**
     * A migration history edited by hand (or by another tool) is refused saying so, in one line: it printed
     * "liquibase.exception.ValidationFailedException: Validation Failed:" and nothing of what failed.
     */
    @Test
    void aMigrationHistoryEditedByHandIsRefusedSayingWhatDiffers() throws Exception {
        Path file = ScratchRegistry.in(dir);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        RawSqlite.execute(file, "UPDATE DATABASECHANGELOG SET MD5SUM = '9:00000000000000000000000000000000' "
                + "WHERE rowid = 1", "PRAGMA user_version = 5");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class, writer::migrate);

        assertTrue(refused.getMessage().contains("the registry's migration history (DATABASECHANGELOG) does not match "
                + "fleet's changelog") && refused.getMessage().contains("check sum"), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n") || refused.getMessage().contains("liquibase.exception"),
                refused.getMessage());
    }

    @Test
    void writersKeepTheFileInWalModeSoReadersNeverWaitForThem() throws Exception {
        Path file = ScratchRegistry.in(dir);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        Registration registration = RowBuilder.registered(AUTHOR, 41004).registration();
        writer.register(registration, Optional.empty());
        assertEquals("wal", RawSqlite.scalar(file, "PRAGMA journal_mode"));
        RawSqlite.execute(file, "PRAGMA journal_mode = DELETE");

        assertTrue(writer.heartbeat(registration.runtimeId(), RowBuilder.REGISTERED.plusSeconds(30)));

        assertEquals("wal", RawSqlite.scalar(file, "PRAGMA journal_mode"));
    }

    @Test
    void aHigherUserVersionBelongsToANewerControlPlaneAndIsKept() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "PRAGMA user_version = 9");

        new SqliteRegistryWriter(file).migrate();

        assertEquals(9, RawSqlite.userVersion(file));
        assertEquals(CONTRACT_COLUMNS.size(),
                RawSqlite.query(file, "SELECT name FROM pragma_table_info('mcp_server_runtimes')").size());
    }

    @Test
    void aTableAnotherToolAlreadyCreatedIsAdoptedNotRebuilt() throws Exception {
        Path file = ScratchRegistry.in(dir);
        String ddl = "CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, "
                + "profile TEXT, role TEXT, remote TEXT, org TEXT, repo TEXT, repository_root TEXT, "
                + "pid INTEGER NOT NULL, cohort_id TEXT, cohort_source TEXT NOT NULL, client_provenance TEXT, "
                + "boot_id TEXT, process_started_at TEXT, startup_head TEXT, transport TEXT, "
                + "status TEXT NOT NULL, registered_at TEXT NOT NULL, last_heartbeat_at TEXT NOT NULL, "
                + "stopped_at TEXT)";
        RawSqlite.execute(file, ddl, "CREATE INDEX idx_mcp_server_runtimes_pid ON mcp_server_runtimes(pid)");
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-python", 42100, "2026-07-28T02:00:00Z"));

        new SqliteRegistryWriter(file).migrate();

        assertEquals(List.of(List.of(ddl.substring(0, ddl.length() - 1) + ", pid_namespace TEXT, endpoint TEXT, "
                + "parent_pid INTEGER, parent_started_at TEXT, host_id TEXT, server_command TEXT, server_pid INTEGER, "
                + "server_started_at TEXT)")),
                RawSqlite.query(file, "SELECT sql FROM sqlite_master WHERE name = 'mcp_server_runtimes'"),
                "only this project's missing columns are added, by ALTER TABLE ... ADD COLUMN");
        RegistryRead read = new SqliteRegistryReader(file).readAll();
        assertEquals(List.of("rt-python"), read.rows().stream().map(row -> row.runtimeId()).toList());
        assertTrue(indexColumns(file).containsKey("idx_mcp_server_runtimes_status"),
                "missing indexes are still added");
        assertEquals(7, RawSqlite.userVersion(file));
    }

    /**
     * A pid column another tool declared TEXT (or REAL) keeps a pid as text: every registration would read back as
     * malformed, for good. The migration refuses it, naming the column, and changes nothing (the registry audit's 7).
     */
    @Test
    void aTableThatKeepsAPidAsTextIsRefusedAndLeftAsItWas() throws Exception {
        for (String pidType : List.of("TEXT", "varchar(20)", "REAL")) {
            Path file = ScratchRegistry.in(Files.createDirectories(dir.resolve(pidType.toLowerCase().replaceAll("[^a-z]", ""))));
            String ddl = "CREATE TABLE mcp_server_runtimes (runtime_id TEXT PRIMARY KEY, namespace TEXT NOT NULL, "
                    + "profile TEXT, role TEXT, remote TEXT, org TEXT, repo TEXT, repository_root TEXT, "
                    + "pid " + pidType + " NOT NULL, cohort_id TEXT, cohort_source TEXT NOT NULL, client_provenance TEXT, "
                    + "boot_id TEXT, process_started_at TEXT, startup_head TEXT, transport TEXT, "
                    + "status TEXT NOT NULL, registered_at TEXT NOT NULL, last_heartbeat_at TEXT NOT NULL, "
                    + "stopped_at TEXT)";
            RawSqlite.execute(file, ddl);

            RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                    () -> new SqliteRegistryWriter(file).migrate());

            assertTrue(refused.getMessage().contains("mcp_server_runtimes declares pid " + pidType + ", which keeps "
                    + "a pid as other than a whole number"), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("nothing was changed"), refused.getMessage());
            assertEquals(List.of(List.of(ddl)), RawSqlite.query(file,
                    "SELECT sql FROM sqlite_master WHERE name = 'mcp_server_runtimes'"));
            assertEquals(0, RawSqlite.userVersion(file));
        }
    }

    @Test
    void theFirstRegistrationMigratesAFileInDirectoriesThatDoNotExistYet() throws Exception {
        Path file = dir.resolve("state/gitea-tools/control_plane.sqlite3");

        new SqliteRegistryWriter(file).register(RowBuilder.registered(AUTHOR, 41002).registration(), Optional.empty());

        assertTrue(Files.isRegularFile(file));
        assertAtTheLatestVersionWithOneRow(file);
    }

    /**
     * A registry as this project's schema version 6 left it (its last three change sets not run, their
     * columns absent, user_version 6), holding a row and another tool's table, migrated by this version:
     * the three columns are added by ALTER TABLE, the row reads them as NULL, nothing else changes.
     */
    @Test
    void aVersionSixFileGainsTheWrappedServersColumnsAndKeepsItsRows() throws Exception {
        Path file = ScratchRegistry.in(dir);
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.migrate();
        writer.register(RowBuilder.registered(AUTHOR, 41005).registration(), Optional.empty());
        RawSqlite.execute(file, "CREATE TABLE sessions (session_id TEXT PRIMARY KEY)",
                "INSERT INTO sessions VALUES ('s-a')");
        for (String column : VERSION_7_COLUMNS) {
            RawSqlite.execute(file, "ALTER TABLE mcp_server_runtimes DROP COLUMN " + column);
        }
        RawSqlite.execute(file, "DELETE FROM DATABASECHANGELOG WHERE ID LIKE '11-%'", "PRAGMA user_version = 6");
        assertEquals(CONTRACT_COLUMNS.size() - 3,
                RawSqlite.query(file, "SELECT name FROM pragma_table_info('mcp_server_runtimes')").size());
        RegistryRow beforeMigration = new SqliteRegistryReader(file).readAll().rows().get(0);
        assertNull(beforeMigration.serverPid(), "a version 6 table lacks the column: read as NULL");
        List<List<Object>> sessions = RawSqlite.query(file, "SELECT * FROM sessions");

        new SqliteRegistryWriter(file).migrate();

        assertEquals(7, RawSqlite.userVersion(file));
        assertEquals(CONTRACT_COLUMNS, RawSqlite.query(file,
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('mcp_server_runtimes') ORDER BY cid"));
        assertEquals(List.of(List.of(3)),
                RawSqlite.query(file, "SELECT COUNT(*) FROM DATABASECHANGELOG WHERE ID LIKE '11-%'"));
        assertEquals(List.of(beforeMigration), new SqliteRegistryReader(file).readAll().rows());
        assertEquals(sessions, RawSqlite.query(file, "SELECT * FROM sessions"));
        Map<String, List<List<Object>>> once = RawSqlite.dump(file);

        new SqliteRegistryWriter(file).migrate();

        assertEquals(once, RawSqlite.dump(file), "idempotent");
    }

    private static Map<String, List<String>> indexColumns(Path file) throws Exception {
        Map<String, List<String>> indexes = new java.util.TreeMap<>();
        for (List<Object> index : RawSqlite.query(file, "SELECT name FROM sqlite_master WHERE type = 'index' "
                + "AND tbl_name = 'mcp_server_runtimes' AND sql IS NOT NULL")) {
            String name = (String) index.get(0);
            indexes.put(name, RawSqlite.query(file, "SELECT name FROM pragma_index_info('" + name + "') ORDER BY seqno")
                    .stream().map(column -> (String) column.get(0)).collect(Collectors.toList()));
        }
        return indexes;
    }

    private static List<List<Object>> sessionSchema(Map<String, List<List<Object>>> dump) {
        return dump.get("sqlite_master").stream().filter(entry -> "sessions".equals(entry.get(2))).toList();
    }

    /** The file is at this version's schema and holds the one row registered. */
    private static void assertAtTheLatestVersionWithOneRow(Path file) throws SQLException {
        assertEquals(7, RawSqlite.userVersion(file));
        assertEquals(1, new SqliteRegistryReader(file).readAll().rows().size());
    }

    /** The file's Liquibase lock, held as {@code lockedBy} left it (no process holds it now). */
    private static void holdChangelogLock(Path file, String lockedBy) throws Exception {
        RawSqlite.execute(file, "UPDATE DATABASECHANGELOGLOCK SET LOCKED = 1, LOCKGRANTED = '2026-07-28T02:00:00', "
                + "LOCKEDBY = '" + lockedBy + "'");
    }
}
