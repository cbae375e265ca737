package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.registry.schema.RegistryStorageException;
import dev.fleet.testing.Patience;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server's write that meets another session's lock on the registry table: the registry is locked, and
 * the operator is told so. A write used to wait out its 30 s socket timeout, the driver then closed the
 * connection, and the rollback of the failed transaction ("This connection has been closed") replaced the
 * failure itself: the log said {@code unreachable} and sent the operator to a server that had answered.
 */
class PostgresWriterLockTest {

    private static final RosterMember MEMBER = Roster.defaultRoster().members().get(0);
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    @Test
    void aWriteBehindAnotherSessionsLockIsLockedWithinItsBound() throws Exception {
        PostgresRegistryWriter writer = writerOfOneRow("held_lock", 5400);

        try (Connection holder = holdingTheTable("held_lock")) {
            long started = System.nanoTime();
            RegistryStorageException failed = assertThrows(RegistryStorageException.class,
                    () -> writer.register(RowBuilder.registered(MEMBER, 5401).registration(), Optional.empty()));
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            holder.rollback();

            String said = failed.getMessage();
            assertTrue(said.contains(": locked: "), said);
            assertFalse(said.contains("unreachable") || said.contains("\n"), said);
            assertTrue(seconds < PostgresLocation.WRITE_TIMEOUT.toSeconds(), "bounded below the socket's timeout, "
                    + "so that the lock, not the socket, answers: " + seconds + " s");
        }
        assertTrue(writer.heartbeat(RowBuilder.registered(MEMBER, 5400).registration().runtimeId(),
                java.time.Instant.now()), "the lock gone, the registry writes again");
    }

    /** A failure mid-transaction is told in its own words, never in those of the rollback that follows it. */
    @Test
    void aSessionEndedMidWriteIsToldByItsOwnFailure() throws Exception {
        PostgresRegistryWriter writer = writerOfOneRow("ended_mid_write", 5500);

        try (Connection holder = holdingTheTable("ended_mid_write")) {
            CompletableFuture<Void> write = CompletableFuture.runAsync(
                    () -> writer.register(RowBuilder.registered(MEMBER, 5501).registration(), Optional.empty()));
            try (Connection admin = SERVER.connect("postgres")) {
                long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
                while (!terminateWaitingWriter(admin) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            Exception failed = assertThrows(Exception.class, () -> write.get(60, TimeUnit.SECONDS));
            holder.rollback();
            String said = failed.getCause().getMessage();
            assertTrue(said.contains("terminating connection"), said);
            assertFalse(said.contains("has been closed"), said);
            assertEquals(RegistryStorageException.class, failed.getCause().getClass());
        }
    }

    /** A writer of a new database {@code name}, which holds one registration, of {@code pid}. */
    private static PostgresRegistryWriter writerOfOneRow(String name, long pid) throws Exception {
        PostgresRegistryWriter writer = new PostgresRegistryWriter(PostgresLocation.parse(SERVER.createDatabase(name)));
        writer.register(RowBuilder.registered(MEMBER, pid).registration(), Optional.empty());
        return writer;
    }

    /** A session of another tool's holding the registry table locked until it rolls back or closes. */
    private static Connection holdingTheTable(String database) throws Exception {
        Connection holder = SERVER.connect(database);
        holder.setAutoCommit(false);
        try (Statement statement = holder.createStatement()) {
            statement.execute("LOCK TABLE public.mcp_server_runtimes IN ACCESS EXCLUSIVE MODE");
        }
        return holder;
    }

    /** Ends the session of fleet's that waits for a lock; false while there is none yet. */
    private static boolean terminateWaitingWriter(Connection admin) throws Exception {
        try (PreparedStatement terminate = admin.prepareStatement("SELECT pg_terminate_backend(pid) FROM "
                + "pg_stat_activity WHERE application_name = 'fleet' AND wait_event_type = 'Lock'");
                ResultSet ended = terminate.executeQuery()) {
            return ended.next();
        }
    }
}
