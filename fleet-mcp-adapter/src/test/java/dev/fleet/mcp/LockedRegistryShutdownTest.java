package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract: on stdin EOF or SIGTERM a server exits within 2 s "even when another process holds the
 * registry locked (then the row stays running and reads as process_exited once the process is
 * gone)". A real stdio server registers in a real SQLite registry and heartbeats every 100 ms; then
 * this test process takes an EXCLUSIVE lock on the file, so the server's next heartbeat waits out
 * its busy timeout (5 s) holding the lifecycle, and its stop write would wait too. The test stops
 * the server only once it has seen such a heartbeat enter the registry and not come back.
 *
 * <p>Timing: the exit is measured from closing stdin (or sending SIGTERM) to the test seeing the
 * process gone, and must fall within the contract's 2 s plus {@link #LOADED_MACHINE_SLACK_MILLIS} for a
 * machine whose two cores other builds share (the JVM's own exit and the test's reaper are part of
 * the measurement). Unbounded, these exits took 5.6–8 s. The server's own budget: 750 ms for the
 * stop, at most 300 ms for closing the session (EOF only), and up to 300 ms the JVM waits at exit
 * for a thread still sleeping in SQLite's busy handler: about 1.1 s (SIGTERM) and 1.4 s (EOF) at
 * worst.
 */
class LockedRegistryShutdownTest {

    private static final long CONTRACT_EXIT_MILLIS = 2_000;
    private static final long LOADED_MACHINE_SLACK_MILLIS = 500;

    @TempDir
    Path temp;

    private Path registry;

    @BeforeEach
    void migrateTheRegistry() {
        // Migrated here, so the server's own registration is one quick write rather than a migration.
        registry = temp.resolve("control_plane.sqlite3");
        new SqliteRegistryWriter(registry).migrate();
    }

    @Test
    void stdinEofExitsInTimeWhileAnotherProcessHoldsTheRegistryLocked() throws Exception {
        exitsInTimeWhileLocked("stdin EOF", RawStdioServer::closeStdin, 0, "a clean exit");
    }

    @Test
    void sigtermExitsInTimeWhileAnotherProcessHoldsTheRegistryLocked() throws Exception {
        exitsInTimeWhileLocked("SIGTERM", server -> assertTrue(server.process().toHandle().destroy()), 143,
                "128 + SIGTERM");
    }

    /** How a test stops the server: closing its stdin, or sending it SIGTERM. */
    @FunctionalInterface
    private interface Stop {
        void stop(RawStdioServer server) throws Exception;
    }

    /**
     * Stops a registered server (by {@code cause}) while this process holds the registry locked and
     * its heartbeat waits for the lock: it must exit within the contract's time with {@code exitValue},
     * leaving its row running (the stop could not be written).
     */
    private void exitsInTimeWhileLocked(String cause, Stop stop, int exitValue, String exitWhy) throws Exception {
        try (RawStdioServer server = registeredServer()) {
            String runtimeId = runtimeId(server);
            try (LockedBetweenHeartbeats locked = lockedBetweenHeartbeats(server)) {
                awaitAHeartbeatWaitingForTheLock(server, locked.heartbeatsBegun());
                long start = System.nanoTime();
                stop.stop(server);
                boolean exited = server.awaitExit(CONTRACT_EXIT_MILLIS + LOADED_MACHINE_SLACK_MILLIS, TimeUnit.MILLISECONDS);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.err.println("stdio server exited " + millis + " ms after " + cause + ", registry locked");

                assertTrue(exited, () -> "still running " + millis + " ms after " + cause + "; stderr:\n"
                        + stderr(server));
                assertEquals(exitValue, server.process().exitValue(), exitWhy);
            }
            assertEquals("running", status(runtimeId), "the stop could not be written: the row reads as "
                    + "process_exited now that the process is gone");
        }
    }

    @Test
    void withoutALockTheStopIsWritten() throws Exception {
        try (RawStdioServer server = registeredServer()) {
            String runtimeId = runtimeId(server);
            server.closeStdin();
            assertTrue(server.awaitExit(CONTRACT_EXIT_MILLIS + LOADED_MACHINE_SLACK_MILLIS, TimeUnit.MILLISECONDS));
            assertEquals("stopped", status(runtimeId));
        }
    }

    /**
     * The registry locked at a moment no heartbeat is inside it, so the next one begins under the
     * lock. A heartbeat caught inside as the lock is taken either ends at once or waits out its whole
     * retry deadline (longer than this test waits), and no other begins meanwhile: then the lock is
     * let go and taken again.
     */
    private LockedBetweenHeartbeats lockedBetweenHeartbeats(RawStdioServer server) throws Exception {
        long giveUp = System.nanoTime() + Patience.scaled(Duration.ofSeconds(10)).toNanos();
        while (true) {
            ExclusiveLock lock = ExclusiveLock.on(registry);
            long begun = count(server, TestServerMain.HEARTBEAT_BEGINS);
            long ended = count(server, TestServerMain.HEARTBEAT_ENDS);
            if (begun == ended) {
                return new LockedBetweenHeartbeats(lock, begun);
            }
            lock.close();
            assertTrue(System.nanoTime() < giveUp, () -> "a heartbeat was inside the registry whenever it was locked: "
                    + begun + " begun, " + ended + " ended");
            Thread.sleep(5);
        }
    }

    /** The registry locked, and how many heartbeats had begun (each of them ended) when it was. */
    private record LockedBetweenHeartbeats(ExclusiveLock lock, long heartbeatsBegun) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            lock.close();
        }
    }

    /**
     * Waits until a heartbeat that began after the lock was taken (after {@code begunBefore} had begun: counted
     * then, not now, since the next one may begin at any moment) has entered the registry and not come back: it is
     * waiting out the busy timeout, holding the lifecycle's write lock, which is what the stop must not wait for
     * beyond its bound.
     */
    private static void awaitAHeartbeatWaitingForTheLock(RawStdioServer server, long begunBefore) throws Exception {
        long giveUp = System.nanoTime() + Patience.scaled(Duration.ofSeconds(10)).toNanos();
        while (true) {
            long ended = count(server, TestServerMain.HEARTBEAT_ENDS);
            long begun = count(server, TestServerMain.HEARTBEAT_BEGINS);
            if (begun > begunBefore && ended < begun) {
                return; // heartbeats run one at a time: the latest, begun under the lock, is still inside
            }
            assertTrue(System.nanoTime() < giveUp, () -> "no heartbeat waited for the locked registry: "
                    + begun + " begun (" + begunBefore + " before the lock), " + ended + " ended");
            Thread.sleep(10);
        }
    }

    private static long count(RawStdioServer server, String line) throws java.io.IOException {
        return server.calls().stream().filter(line::equals).count();
    }

    private RawStdioServer registeredServer() throws Exception {
        RawStdioServer server = new RawStdioServer(temp, "--sqlite-registry=" + registry, "--heartbeat-millis=100");
        server.initialize();
        return server;
    }

    /** The server's runtime id, once its registration is in the file (asked until then, for a minute at most). */
    private String runtimeId(RawStdioServer server) throws Exception {
        long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        JsonNode context;
        int id = 2;
        do {
            context = server.callTool(id++, "gitea_get_runtime_context").path("result").path("structuredContent");
        } while (!context.path("registration").path("status").asText().equals("registered")
                && System.nanoTime() < giveUp && sleep(100));
        JsonNode last = context;
        assertEquals("registered", context.path("registration").path("status").asText(), last::toString);
        String runtimeId = context.path("runtime_id").asText();
        assertEquals("running", status(runtimeId));
        return runtimeId;
    }

    private static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }

    private String status(String runtimeId) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
                PreparedStatement query = connection.prepareStatement(
                        "SELECT status FROM mcp_server_runtimes WHERE runtime_id = ?")) {
            query.setString(1, runtimeId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    private static String stderr(RawStdioServer server) {
        try {
            return server.stderrText();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** An EXCLUSIVE lock on the registry file, held by this (test) process until closed. */
    private static final class ExclusiveLock implements AutoCloseable {

        private final Connection connection;

        private ExclusiveLock(Connection connection) {
            this.connection = connection;
        }

        static ExclusiveLock on(Path file) throws SQLException {
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA locking_mode=EXCLUSIVE");
                statement.execute("BEGIN EXCLUSIVE");
                statement.executeQuery("SELECT count(*) FROM mcp_server_runtimes").close();
            }
            // Make sure the lock really shuts others out (SQLite sees other connections' locks on the same file).
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement probe = other.createStatement()) {
                probe.execute("PRAGMA busy_timeout=0");
                assertThrows(SQLException.class, () -> probe.executeQuery(
                        "SELECT count(*) FROM mcp_server_runtimes").close(), "the registry must be locked");
            }
            return new ExclusiveLock(connection);
        }

        @Override
        public void close() throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute("ROLLBACK");
            } finally {
                connection.close();
            }
        }
    }
}
