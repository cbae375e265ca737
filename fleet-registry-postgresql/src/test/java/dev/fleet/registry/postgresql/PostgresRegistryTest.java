package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PostgreSQL adapter's own guarantees on a real server the test starts: the read path writes
 * nothing and never migrates (counted by PostgreSQL itself), a database that is down, refusing or
 * silent is a registry reason and never a hang, and fifty servers registering at once on a fresh
 * database all succeed (the first migration included).
 */
class PostgresRegistryTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final List<RosterMember> MEMBERS = Roster.defaultRoster().members();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    private static String freshDatabase() {
        return "registry_" + DATABASES.incrementAndGet();
    }

    private static PostgresLocation location(String database) {
        return PostgresLocation.parse(SERVER.postgres().createDatabase(database));
    }

    /** Rows inserted, updated and deleted in the registry table, as PostgreSQL's statistics count them. */
    private static long writesCounted(String database) throws SQLException {
        try (Connection connection = SERVER.postgres().connect(database)) {
            try (PreparedStatement flush = connection.prepareStatement("SELECT pg_stat_clear_snapshot()");
                    ResultSet ignored = flush.executeQuery()) {
                // the next read sees every session's statistics flushed so far
            }
            try (PreparedStatement counts = connection.prepareStatement("SELECT coalesce(sum(n_tup_ins + n_tup_upd "
                    + "+ n_tup_del), 0) FROM pg_stat_user_tables WHERE relname = 'mcp_server_runtimes'");
                    ResultSet result = counts.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    @Test
    void theReadPathWritesNothingAndRunsInAReadOnlyTransaction() throws Exception {
        String database = freshDatabase();
        PostgresLocation location = location(database);
        PostgresRegistryWriter writer = new PostgresRegistryWriter(location);
        for (int i = 0; i < MEMBERS.size(); i++) {
            writer.register(RowBuilder.registered(MEMBERS.get(i), 5100 + i).registration(), Optional.empty());
        }
        long before = writesCounted(database);
        assertTrue(before >= MEMBERS.size(), "the statistics count writes: " + before);

        PostgresRegistryReader reader = new PostgresRegistryReader(location);
        for (int i = 0; i < 20; i++) {
            assertEquals(MEMBERS.size(), reader.readAll().rows().size());
        }
        // Sessions flush their statistics when they end; every read's session has ended.
        assertEquals(before, writesCounted(database));

        try (Connection readSide = location.open(PostgresLocation.Session.READER)) {
            readSide.setAutoCommit(false);
            SQLException refused = assertThrows(SQLException.class, () -> {
                try (PreparedStatement insert = readSide.prepareStatement(
                        "DELETE FROM public.mcp_server_runtimes")) {
                    insert.executeUpdate();
                }
            });
            assertEquals("25006", refused.getSQLState(), "read_only_sql_transaction");
        }
    }

    @Test
    void theReadPathNeverMigratesAnEmptyDatabase() throws Exception {
        String database = freshDatabase();
        RegistryRead read = new PostgresRegistryReader(location(database)).readAll();

        assertEquals(new RegistryRead.Unreadable(RegistryReason.MISSING, "no table mcp_server_runtimes"), read);
        try (Connection connection = SERVER.postgres().connect(database);
                PreparedStatement tables = connection.prepareStatement(
                        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'");
                ResultSet result = tables.executeQuery()) {
            result.next();
            assertEquals(0, result.getInt(1), "no table, not even Liquibase's");
        }
    }

    @Test
    void aDatabaseThatIsDownIsUnreachableAndAWriteSaysSo() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        PostgresLocation down = PostgresLocation.parse("postgresql://fleet@127.0.0.1:" + closedPort + "/fleet");

        assertEquals(RegistryReason.UNREACHABLE, reason(new PostgresRegistryReader(down).readAll()));
        RegistryStorageException failed = assertThrows(RegistryStorageException.class, () -> new PostgresRegistryWriter(
                down).register(RowBuilder.registered(MEMBERS.get(0), 5200).registration(), Optional.empty()));
        assertTrue(failed.getMessage().contains("unreachable"), failed.getMessage());
        assertFalse(failed.getMessage().contains("\n"), failed.getMessage());
    }

    @Test
    void aServerThatAcceptsButNeverAnswersIsUnreachableNotAHang() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            PostgresLocation slow = PostgresLocation.parse("postgresql://fleet@127.0.0.1:" + silent.getLocalPort()
                    + "/fleet");

            assertEquals(RegistryReason.UNREACHABLE, reason(new PostgresRegistryReader(slow).readAll()));
        }
    }

    @Test
    void refusedCredentialsAreAccessDeniedAndAMissingDatabaseIsMissing() {
        PostgresLocation stranger = PostgresLocation.parse("postgresql://stranger@127.0.0.1:" + SERVER.postgres().port()
                + "/postgres");
        assertEquals(RegistryReason.ACCESS_DENIED, reason(new PostgresRegistryReader(stranger).readAll()));

        PostgresLocation nowhere = PostgresLocation.parse("postgresql://fleet@127.0.0.1:" + SERVER.postgres().port()
                + "/no_such_database");
        assertEquals(RegistryReason.MISSING, reason(new PostgresRegistryReader(nowhere).readAll()));
    }

    /**
     * Issue 48: a role the server asks for a password, given none (no {@code PGPASSWORD}, no {@code ~/.pgpass}
     * line), read as {@code unreachable}, which sends the operator to a server that answered. It is {@code
     * access_denied}, for a reader as for a writer, and what to do speaks of the role and its password, never
     * of a file.
     */
    @Test
    void aRoleAskedForAPasswordItLacksIsAccessDeniedAndTheActionIsAboutTheRole() {
        String database = freshDatabase();
        PostgresLocation owner = location(database);
        SERVER.postgres().createGuardedRole("guarded", "not-given");
        PostgresLocation guarded = new PostgresLocation("guarded", owner.host(), owner.port(), database);

        assertEquals(RegistryReason.ACCESS_DENIED, reason(new PostgresRegistryReader(guarded).readAll()));
        RegistryStorageException failed = assertThrows(RegistryStorageException.class,
                () -> PostgresRegistryWriter.forOperator(guarded).migrate());
        String said = failed.getMessage();
        assertTrue(said.contains("access_denied") && said.contains("role") && said.contains("PGPASSWORD"), said);
        assertFalse(said.contains("file") || said.contains("permission") || said.contains("\n"), said);
        assertFalse(said.contains(".."), "one sentence ends once: " + said);
    }

    /**
     * A role that may connect but not read the table sees no columns of it in {@code information_schema}
     * (which shows only what the role may use): that must not read as "no table", {@code missing}, which
     * sends the operator to create one. It is {@code access_denied}.
     */
    @Test
    void aRoleWithoutSelectOnTheTableIsAccessDeniedNotMissing() throws Exception {
        String database = freshDatabase();
        PostgresLocation owner = location(database);
        new PostgresRegistryWriter(owner).register(RowBuilder.registered(MEMBERS.get(0), 5300).registration(),
                Optional.empty());
        SERVER.postgres().admin("CREATE ROLE no_select LOGIN");
        SERVER.postgres().admin("GRANT CONNECT ON DATABASE " + database + " TO no_select");
        PostgresLocation denied = new PostgresLocation("no_select", owner.host(), owner.port(), database);

        assertEquals(RegistryReason.ACCESS_DENIED, reason(new PostgresRegistryReader(denied).readAll()));
        assertEquals(RegistryReason.ACCESS_DENIED, reason(new PostgresRegistryReader(denied)
                .read(dev.fleet.domain.RegistrationStatus.RUNNING)));

        // As a writer, the same role is told what a writer needs, not a reader's GRANT SELECT alone.
        String said = assertThrows(RegistryStorageException.class, () -> new PostgresRegistryWriter(denied)
                .register(RowBuilder.registered(MEMBERS.get(1), 5301).registration(), Optional.empty())).getMessage();
        assertTrue(said.contains("access_denied") && said.endsWith(PostgresRegistryWriter.WRITE_ACTION), said);
    }

    @Test
    void fiftyServersRegisteringAtOnceOnAFreshDatabaseAllSucceed() throws Exception {
        PostgresLocation location = location(freshDatabase());
        int servers = 50;
        ExecutorService pool = Executors.newFixedThreadPool(servers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> registrations = new ArrayList<>();
            for (int i = 0; i < servers; i++) {
                int index = i;
                registrations.add(pool.submit(() -> {
                    start.await();
                    PostgresRegistryWriter writer = new PostgresRegistryWriter(location);
                    String id = writer.register(RowBuilder.registered(MEMBERS.get(index % MEMBERS.size()), 6000 + index)
                            .registration(), Optional.of(Duration.ofDays(7))).runtimeId();
                    return writer.heartbeat(id, RowBuilder.REGISTERED);
                }));
            }
            start.countDown();
            for (Future<?> registration : registrations) {
                assertEquals(Boolean.TRUE, registration.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(servers, new PostgresRegistryReader(location).readAll().rows().size());
    }

    /**
     * Another tool's table may hold a parent or server pid as text or numeric: it names no process and
     * reads as -1, never as NULL (unknown would exempt the row from the orphan and exited-server rules);
     * NULL stays NULL (the migration refuses such a table, naming the columns: PostgresForeignTablesTest). And
     * Liquibase's lock that another tool holds is left to it: migrate refuses.
     */
    @Test
    void aPidStoredAsNoIntegerReadsAsNoProcessAndAnotherToolsLockIsLeft() throws Exception {
        String database = freshDatabase();
        PostgresLocation location = location(database);
        PostgresRegistryWriter writer = new PostgresRegistryWriter(location);
        writer.register(RowBuilder.registered(MEMBERS.get(0), 5400).parent(5399, RowBuilder.REGISTERED)
                .registration(), Optional.empty());
        execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN parent_pid TYPE text",
                "ALTER TABLE mcp_server_runtimes ALTER COLUMN server_pid TYPE numeric",
                "UPDATE mcp_server_runtimes SET parent_pid = '4000000', server_pid = 4000000.0",
                "UPDATE databasechangeloglock SET locked = true, lockedby = 'billing-service migration (10.1.2.3)'");
        RegistryRow row = new PostgresRegistryReader(location).readAll().rows().get(0);
        assertEquals(-1L, row.parentPid());
        assertEquals(-1L, row.serverPid());
        // Such a table is refused by the migration for its types alone: back to integers, the lock is what stops it.
        execute(database, "ALTER TABLE mcp_server_runtimes ALTER COLUMN parent_pid TYPE integer USING -1",
                "ALTER TABLE mcp_server_runtimes ALTER COLUMN server_pid TYPE integer USING -1");

        RegistryStorageException refused = assertThrows(RegistryStorageException.class, writer::migrate);
        assertTrue(refused.getMessage().contains("another tool holds the registry's Liquibase lock"), refused.getMessage());
        try (Connection connection = SERVER.postgres().connect(database);
                PreparedStatement lock = connection.prepareStatement("SELECT locked, lockedby FROM databasechangeloglock");
                ResultSet result = lock.executeQuery()) {
            result.next();
            assertTrue(result.getBoolean(1), "the other tool's lock is left");
            assertEquals("billing-service migration (10.1.2.3)", result.getString(2));
        }
    }

    /**
     * A database as schema version 6 left it (the wrapped server's columns absent, their change sets not
     * run): its rows read those columns as NULL, and the next migration adds them, keeping the rows.
     */
    @Test
    void aVersionSixDatabaseReadsTheServersColumnsAsNullAndGainsThemOnMigration() throws Exception {
        String database = freshDatabase();
        PostgresLocation location = location(database);
        PostgresRegistryWriter writer = new PostgresRegistryWriter(location);
        writer.register(RowBuilder.registered(MEMBERS.get(0), 5300).registration(), Optional.empty());
        execute(database, "ALTER TABLE mcp_server_runtimes DROP COLUMN server_command",
                "ALTER TABLE mcp_server_runtimes DROP COLUMN server_pid",
                "ALTER TABLE mcp_server_runtimes DROP COLUMN server_started_at",
                "DELETE FROM databasechangelog WHERE id LIKE '11-%'");
        PostgresRegistryReader reader = new PostgresRegistryReader(location);
        RegistryRow before = reader.readAll().rows().get(0);
        assertEquals(null, before.serverPid());
        assertEquals(null, before.serverCommand());

        writer.migrate();
        Registration wrapping = RowBuilder.registered(MEMBERS.get(1), 5301).wraps("node server.js --auth=***", 5302,
                RowBuilder.REGISTERED).registration();
        writer.register(wrapping, Optional.empty());

        List<RegistryRow> rows = reader.readAll().rows();
        assertEquals(before, rows.get(0), "the version 6 row is kept as it was");
        assertEquals("node server.js --auth=***", rows.get(1).serverCommand());
        assertEquals(5302L, rows.get(1).serverPid());
        try (Connection connection = SERVER.postgres().connect(database);
                PreparedStatement count = connection.prepareStatement(
                        "SELECT count(*) FROM databasechangelog WHERE id LIKE '11-%'");
                ResultSet result = count.executeQuery()) {
            result.next();
            assertEquals(3, result.getInt(1));
        }
    }

    @Test
    void aUrlCarriesNoPasswordAndNamesEveryPart() {
        PostgresLocation parsed = PostgresLocation.parse("postgresql://fleet@db.example:6543/registry");
        assertEquals(new PostgresLocation("fleet", "db.example", 6543, "registry"), parsed);
        assertEquals(5432, PostgresLocation.parse("postgresql://fleet@db.example/registry").port());
        assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://fleet:secret@db/x"));
        assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://db:1/x"));
        assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse("postgresql://fleet@db:1/"));
        assertTrue(PostgresLocation.isUrl("postgresql://fleet@db/x"));
        assertFalse(PostgresLocation.isUrl("/var/lib/registry.sqlite3"));
    }

    private static RegistryReason reason(RegistryRead read) {
        return read instanceof RegistryRead.Unreadable unreadable ? unreadable.reason() : null;
    }

    /** Runs {@code statements} on {@code database}, in order, as another tool would. */
    private static void execute(String database, String... statements) throws Exception {
        try (Connection connection = SERVER.postgres().connect(database)) {
            for (String sql : statements) {
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.executeUpdate();
                }
            }
        }
    }
}
