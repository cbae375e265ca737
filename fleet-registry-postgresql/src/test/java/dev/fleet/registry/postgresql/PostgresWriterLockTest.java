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
 * A server's write that fails mid-transaction: the failure is told, never the rollback's. The driver's
 * "This connection has been closed", from the rollback of a session the server had ended, replaced the
 * failure itself.
 */
class PostgresWriterLockTest {

    private static final RosterMember MEMBER = Roster.defaultRoster().members().get(0);
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    /** A failure mid-transaction is told in its own words, never in those of the rollback that follows it. */
    @Test
    void aSessionEndedMidWriteIsToldByItsOwnFailure() throws Exception {
        PostgresLocation location = PostgresLocation.parse(SERVER.createDatabase("ended_mid_write"));
        PostgresRegistryWriter writer = new PostgresRegistryWriter(location);
        writer.register(RowBuilder.registered(MEMBER, 5500).registration(), Optional.empty());

        try (Connection holder = SERVER.connect("ended_mid_write"); Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            statement.execute("LOCK TABLE public.mcp_server_runtimes IN ACCESS EXCLUSIVE MODE");
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

    /** Ends the session of fleet's that waits for a lock; false while there is none yet. */
    private static boolean terminateWaitingWriter(Connection admin) throws Exception {
        try (PreparedStatement terminate = admin.prepareStatement("SELECT pg_terminate_backend(pid) FROM "
                + "pg_stat_activity WHERE application_name = 'fleet' AND wait_event_type = 'Lock'");
                ResultSet ended = terminate.executeQuery()) {
            return ended.next();
        }
    }
}
