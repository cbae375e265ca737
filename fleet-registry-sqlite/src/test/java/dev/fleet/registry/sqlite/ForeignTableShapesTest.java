package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.BlockedCode;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistrySchema;
import dev.fleet.registry.schema.RegistryStorageException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables other tools made: the same columns in another order, columns of their own, the original
 * implementation's shape (without this project's columns), and tables that lack columns. Columns
 * are read and written by name, so none of this may change a verdict or lose a row.
 */
class ForeignTableShapesTest {

    /** The contract's columns with the original implementation's types, in the contract order. */
    private static final List<String> CONTRACT_COLUMNS = List.of(
            "runtime_id TEXT PRIMARY KEY", "namespace TEXT NOT NULL", "profile TEXT", "role TEXT", "remote TEXT",
            "org TEXT", "repo TEXT", "repository_root TEXT", "pid INTEGER NOT NULL", "cohort_id TEXT",
            "cohort_source TEXT NOT NULL", "client_provenance TEXT", "boot_id TEXT", "process_started_at TEXT",
            "startup_head TEXT", "transport TEXT", "status TEXT NOT NULL", "registered_at TEXT NOT NULL",
            "last_heartbeat_at TEXT NOT NULL", "stopped_at TEXT", "pid_namespace TEXT", "endpoint TEXT",
            "parent_pid INTEGER", "parent_started_at TEXT", "host_id TEXT", "server_command TEXT", "server_pid INTEGER",
            "server_started_at TEXT");
    private static final Instant REGISTERED = Instant.parse("2026-07-28T02:00:00Z");
    private static final Instant STARTED = REGISTERED.minusSeconds(2);

    @TempDir
    Path dir;

    @Test
    void aCohortSplitStaysASplitWhateverTheColumnOrder() throws Exception {
        List<String> swapped = new ArrayList<>(CONTRACT_COLUMNS);
        Collections.swap(swapped, swapped.indexOf("cohort_id TEXT"), swapped.indexOf("client_provenance TEXT"));

        Verdict verdict = verdictOf(fiveMembersInTwoCohorts(swapped));

        assertFalse(verdict.mutationGateSatisfied(), "the gate must not open over a split fleet");
        assertEquals(Boolean.FALSE, verdict.singleCohort());
        assertEquals(List.of("ppid:100", "ppid:200"), verdict.cohortIds());
        assertEquals(BlockedCode.COHORT_SPLIT, verdict.blockedReason());
        assertEquals(Boolean.TRUE, verdict.singleRevision());
    }

    @Test
    void theSameRowsInAnyColumnOrderOrWithExtraColumnsGiveByteIdenticalVerdicts() throws Exception {
        String reference = json(verdictOf(fiveMembersInTwoCohorts(CONTRACT_COLUMNS)));
        List<List<String>> shapes = new ArrayList<>();
        List<String> reversed = new ArrayList<>(CONTRACT_COLUMNS);
        Collections.reverse(reversed);
        shapes.add(reversed);
        List<String> cohortAndHeadSwapped = new ArrayList<>(CONTRACT_COLUMNS);
        Collections.swap(cohortAndHeadSwapped, cohortAndHeadSwapped.indexOf("cohort_id TEXT"),
                cohortAndHeadSwapped.indexOf("startup_head TEXT"));
        shapes.add(cohortAndHeadSwapped);
        List<String> extraFirstAndMiddle = new ArrayList<>(CONTRACT_COLUMNS);
        extraFirstAndMiddle.add(0, "tool_notes TEXT");
        extraFirstAndMiddle.add(9, "lease_owner INTEGER");
        shapes.add(extraFirstAndMiddle);
        Random random = new Random(20261201);
        for (int i = 0; i < 5; i++) {
            List<String> shuffled = new ArrayList<>(CONTRACT_COLUMNS);
            Collections.shuffle(shuffled, random);
            shapes.add(shuffled);
        }
        for (List<String> shape : shapes) {
            assertEquals(reference, json(verdictOf(fiveMembersInTwoCohorts(shape))), String.join(", ", shape));
        }
    }

    @Test
    void theOriginalShapeReadsWithoutThisProjectsColumnsAndTakesRegistrations() throws Exception {
        Path file = table(without(CONTRACT_COLUMNS, "process_started_at", "pid_namespace", "endpoint", "parent_pid",
                "parent_started_at", "host_id", "server_command", "server_pid", "server_started_at"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-python", 42100, "2026-07-28T02:00:00Z"));

        RegistryRow python = new SqliteRegistryReader(file).readAll().rows().get(0);
        assertEquals("rt-python", python.runtimeId());
        assertNull(python.processStartedAt());
        assertNull(python.pidNamespace());
        assertNull(python.serverCommand());
        assertNull(python.serverPid());
        assertNull(python.serverStartedAt());

        RosterMember reviewer = Roster.defaultRoster().members().get(1);
        new SqliteRegistryWriter(file).register(RowBuilder.registered(reviewer, 42101).registration(), Optional.empty());

        List<RegistryRow> rows = new SqliteRegistryReader(file).readAll().rows();
        assertEquals(List.of("rt-python", "rt-prgs-reviewer-42101"), rows.stream().map(RegistryRow::runtimeId).toList());
        assertEquals(RowBuilder.PID_NAMESPACE, rows.get(1).pidNamespace(), "its own columns were added first");
        assertEquals(RowBuilder.registered(reviewer, 42101).build(), rows.get(1));
    }

    /**
     * An index's name is taken by a table or view of that name as well (SQLite keeps one namespace for the three):
     * a view another tool named as one of the registry's indexes made every migration fail ("there is already a
     * table named …"), and so every registration. That index is then left unmade, as where another tool made it
     * first: the registry only reads slower.
     */
    @Test
    void aViewNamedAsOneOfTheRegistrysIndexesInAnyCaseBlocksNoRegistration() throws Exception {
        Path file = ScratchRegistry.in(dir);
        RawSqlite.execute(file, "CREATE VIEW idx_mcp_server_runtimes_status AS SELECT 1 AS one",
                "CREATE VIEW IDX_MCP_SERVER_RUNTIMES_PID AS SELECT 1 AS one", // SQLite compares names case aside
                "CREATE TABLE other_tool (a)", // a trigger's name is in a namespace of its own: the index is made
                "CREATE TRIGGER idx_mcp_server_runtimes_namespace_profile AFTER INSERT ON other_tool BEGIN SELECT 1; END");
        RosterMember author = Roster.defaultRoster().members().get(0);

        new SqliteRegistryWriter(file).register(RowBuilder.registered(author, 42103).registration(), Optional.empty());

        assertEquals(RegistrySchema.SCHEMA_VERSION, RawSqlite.userVersion(file));
        assertEquals(List.of("rt-prgs-author-42103"),
                new SqliteRegistryReader(file).readAll().rows().stream().map(RegistryRow::runtimeId).toList());
        assertEquals(List.of(List.of("view")), RawSqlite.query(file,
                "SELECT type FROM sqlite_master WHERE name = 'idx_mcp_server_runtimes_status'"), "the view is left as it was");
        assertEquals(List.of(List.of("index")), RawSqlite.query(file, "SELECT type FROM sqlite_master WHERE type = 'index' "
                + "AND name = 'idx_mcp_server_runtimes_namespace_profile'"), "an index beside a trigger of its name");
    }

    @Test
    void migrateAddsThisProjectsColumnsOnceAndLeavesEverythingElse() throws Exception {
        Path file = table(without(CONTRACT_COLUMNS, "process_started_at", "pid_namespace", "endpoint", "parent_pid",
                "parent_started_at", "host_id", "server_command", "server_pid", "server_started_at"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-python", 42100, "2026-07-28T02:00:00Z"));
        RawSqlite.execute(file, "CREATE TABLE sessions (session_id TEXT PRIMARY KEY)",
                "INSERT INTO sessions VALUES ('s-a')");

        new SqliteRegistryWriter(file).migrate();

        List<String> columns = RawSqlite.query(file, "SELECT name FROM pragma_table_info('mcp_server_runtimes')")
                .stream().map(row -> (String) row.get(0)).toList();
        assertEquals(List.of("process_started_at", "pid_namespace", "endpoint", "parent_pid", "parent_started_at",
                "host_id", "server_command", "server_pid", "server_started_at"),
                columns.subList(columns.size() - 9, columns.size()));
        assertEquals(List.of(List.of("s-a")), RawSqlite.query(file, "SELECT * FROM sessions"));
        assertEquals(7, RawSqlite.userVersion(file));
        Map<String, List<List<Object>>> once = RawSqlite.dump(file);

        new SqliteRegistryWriter(file).migrate();

        assertEquals(once, RawSqlite.dump(file), "idempotent");
        assertEquals("rt-python", new SqliteRegistryReader(file).readAll().rows().get(0).runtimeId());
    }

    @Test
    void aTableLackingColumnsIsSchemaMissingNamingThemAndMigrateRefusesWithoutATouch() throws Exception {
        Path file = table(without(CONTRACT_COLUMNS, "boot_id", "startup_head", "stopped_at"));
        String before = RawSqlite.sha256(file);

        RegistryRead read = new SqliteRegistryReader(file).readAll();
        assertEquals(RegistryReason.SCHEMA_MISSING, ((RegistryRead.Unreadable) read).reason());
        assertEquals("mcp_server_runtimes lacks columns boot_id, startup_head, stopped_at", ((RegistryRead.Unreadable) read).detail());

        RegistryStorageException refused =
                assertThrows(RegistryStorageException.class, () -> new SqliteRegistryWriter(file).migrate());
        assertTrue(refused.getMessage().contains("lacks columns boot_id, startup_head, stopped_at"),
                refused.getMessage());
        assertEquals(before, RawSqlite.sha256(file), "nothing was changed");
        assertEquals(0, RawSqlite.userVersion(file), "no claim of a schema version");

        RosterMember author = Roster.defaultRoster().members().get(0);
        RegistryStorageException register = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(file).register(RowBuilder.registered(author, 42102).registration(), Optional.empty()));
        assertTrue(register.getMessage().contains("lacks columns boot_id, startup_head, stopped_at"),
                register.getMessage());
    }

    /**
     * A table with every column of schema version 6 but none of version 7's (another tool's, or one a
     * version 6 server made and nothing migrated since): the wrapped server's columns read as NULL,
     * whatever that tool wrote in its own columns, and the verdict is the one the full table gives.
     */
    @Test
    void aTableWithoutTheWrappedServersColumnsReadsThemAsNull() throws Exception {
        List<String> version6 = without(CONTRACT_COLUMNS, "server_command", "server_pid", "server_started_at");
        version6.add("tool_server_pid INTEGER");
        Path file = fiveMembersInTwoCohorts(version6);
        RawSqlite.execute(file, "UPDATE mcp_server_runtimes SET tool_server_pid = 77");

        List<RegistryRow> rows = new SqliteRegistryReader(file).readAll().rows();

        assertEquals(5, rows.size());
        for (RegistryRow row : rows) {
            assertNull(row.serverCommand());
            assertNull(row.serverPid());
            assertNull(row.serverStartedAt());
        }
        assertEquals(json(verdictOf(fiveMembersInTwoCohorts(CONTRACT_COLUMNS))), json(verdictOf(file)));
    }

    /** Five default members on live-looking pids, the author and reviewer in one cohort, the rest in another. */
    private Path fiveMembersInTwoCohorts(List<String> columns) throws Exception {
        Path file = table(columns);
        List<RosterMember> members = Roster.defaultRoster().members();
        for (int i = 0; i < members.size(); i++) {
            RosterMember member = members.get(i);
            Map<String, Object> row = RawSqlite.otherWriterRow("rt-" + i, 5100 + i, "2026-07-28T02:00:00Z");
            row.put("namespace", member.namespace());
            row.put("profile", member.profile());
            row.put("role", member.role());
            row.put("cohort_id", i < 2 ? "ppid:100" : "ppid:200");
            row.put("cohort_source", "parent_process");
            row.put("client_provenance", "client_managed");
            row.put("startup_head", "82d71b77028a7abd4f8ab4a4e4d89658a187f73d");
            row.put("boot_id", RowBuilder.BOOT);
            row.put("transport", "stdio");
            RawSqlite.insertRuntime(file, row);
        }
        return file;
    }

    @Test
    void aRegistrationWhoseRuntimeIdTwoRowsHoldIsRefusedNamingIt() throws Exception {
        // No primary key (another tool made the table), and a row already on the id the server is given.
        Path file = table(RegistryColumn.ALL.stream().map(column -> column.sqlName() + " " + column.sqlType()).toList());
        Registration registration = RowBuilder.registered(Roster.defaultRoster().members().get(0), 42100).registration();
        RawSqlite.execute(file, "PRAGMA journal_mode = WAL", "PRAGMA user_version = " + RegistrySchema.SCHEMA_VERSION);
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow(registration.runtimeId(), 42101, "2026-08-01T00:00:00Z"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow(registration.runtimeId(), 42102, "2026-08-01T00:00:00Z"));
        Map<String, List<List<Object>>> before = RawSqlite.dump(file);

        RegistryStorageException refused = assertThrows(RegistryStorageException.class,
                () -> new SqliteRegistryWriter(file).register(registration, Optional.empty()));

        assertEquals("registry register failed for " + file + ": more than one row holds runtime_id "
                + registration.runtimeId() + " (mcp_server_runtimes has no primary key; another tool made it); "
                + "nothing was changed", refused.getMessage());
        assertEquals(before, RawSqlite.dump(file), "nothing of the refused registration is committed");
    }

    private static Verdict verdictOf(Path file) {
        SqliteRegistryReader reader = new SqliteRegistryReader(file);
        RegistryRead read = reader.readAll();
        assertTrue(read.readable(), () -> "unreadable: " + read);
        List<ObservedProcess> processes = read.rows().stream()
                .map(row -> new ObservedProcess(row.pid(), STARTED, "java -jar fleet.jar serve --profile " + row.profile(),
                        "fleet", true))
                .toList();
        ProcessObservation observation =
                ProcessObservation.of(RowBuilder.BOOT, "fleet-host", RowBuilder.PID_NAMESPACE, processes);
        return FleetClassifier.classify(new Snapshot(Roster.defaultRoster(), read, observation,
                Instant.parse("2026-07-28T03:00:00Z"), "control_plane.sqlite3", null));
    }

    private Path table(List<String> columns) throws Exception {
        Path file = dir.resolve("registry-" + Integer.toHexString(columns.hashCode()) + ".sqlite3");
        RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (" + String.join(", ", columns) + ")");
        return file;
    }

    private static List<String> without(List<String> columns, String... names) {
        List<String> dropped = List.of(names);
        return columns.stream().filter(column -> !dropped.contains(column.split(" ")[0])).collect(Collectors.toList());
    }

    private static String json(Verdict verdict) {
        return CanonicalJson.encode(VerdictDocument.toTree(verdict));
    }
}
