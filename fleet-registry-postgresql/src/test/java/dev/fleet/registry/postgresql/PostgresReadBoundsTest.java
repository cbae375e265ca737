package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A PostgreSQL read is bounded as a SQLite read is (docs/CONTRACT.md, "Read bounds"), whatever the server or the
 * table does: a server that trickles its answer, each round trip well inside the driver's own timeout, is cut off
 * at the read's 3 s (it held {@code assess} and {@code wait} for minutes), and a value over 1 MiB is refused (a
 * view of such values ran the heap out).
 */
class PostgresReadBoundsTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    @RegisterExtension
    static final LocalPostgresServer SERVER = new LocalPostgresServer();

    @Test
    void aServerThatTricklesItsAnswerIsCutOffAtTheReadsDeadline() throws Exception {
        String database = registryOf(3_000);
        try (TricklingProxy proxy = new TricklingProxy(SERVER.postgres().port())) {
            PostgresLocation slow = PostgresLocation.parse("postgresql://" + LocalPostgres.USER + "@127.0.0.1:"
                    + proxy.port() + "/" + database);
            long start = System.nanoTime();
            RegistryRead read = new PostgresRegistryReader(slow).readAll();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            RegistryRead.Unreadable refused = assertInstanceOf(RegistryRead.Unreadable.class, read);
            assertEquals(RegistryReason.IO_ERROR, refused.reason());
            assertEquals("reading it took longer than 3 s", refused.detail());
            assertTrue(took.compareTo(Patience.scaled(Duration.ofSeconds(10))) < 0, "took " + took);
        }
    }

    /**
     * A table another session has locked reads as {@code locked}, saying so, on every read alike: the read waited
     * for the lock until its statement's timeout or its socket's ended it, whichever came first, and answered
     * {@code io_error} or {@code unreachable} by turns, so two answerers gave two digests.
     */
    @Test
    void aTableAnotherSessionLockedReadsAsLockedEveryTime() throws Exception {
        String database = registryOf(3);
        PostgresLocation location = PostgresLocation.parse("postgresql://" + LocalPostgres.USER + "@127.0.0.1:"
                + SERVER.postgres().port() + "/" + database);
        try (Connection holder = SERVER.postgres().connect(database); Statement lock = holder.createStatement()) {
            holder.setAutoCommit(false);
            lock.execute("LOCK TABLE mcp_server_runtimes IN ACCESS EXCLUSIVE MODE");
            for (int read = 0; read < 3; read++) {
                assertEquals(new RegistryRead.Unreadable(RegistryReason.LOCKED, "another session held a lock on "
                        + "mcp_server_runtimes for longer than 1 s"), new PostgresRegistryReader(location).readAll());
            }
            holder.rollback();
        }
        assertEquals(3, new PostgresRegistryReader(location).readAll().rows().size(), "the lock gone, it reads");
    }

    @Test
    void aValueOverOneMebibyteIsRefusedAndTheRestReads() throws Exception {
        String database = registryOf(10);
        PostgresLocation location = PostgresLocation.parse("postgresql://" + LocalPostgres.USER + "@127.0.0.1:"
                + SERVER.postgres().port() + "/" + database);
        assertEquals(10, new PostgresRegistryReader(location).readAll().rows().size());
        SERVER.postgres().execute(database,
                "UPDATE mcp_server_runtimes SET role = repeat('x', 1048577) WHERE runtime_id LIKE '%-3'");

        RegistryRead.Unreadable refused = assertInstanceOf(RegistryRead.Unreadable.class,
                new PostgresRegistryReader(location).readAll());
        assertEquals(RegistryReason.IO_ERROR, refused.reason());
        assertEquals("a value longer than 1 MiB in mcp_server_runtimes: read refused (a registry holds far less)",
                refused.detail());
    }

    /** A migrated registry of {@code rows} rows, copies of one a server wrote. */
    private static String registryOf(int rows) throws Exception {
        String database = "bounds_" + DATABASES.incrementAndGet();
        PostgresLocation location = PostgresLocation.parse(SERVER.postgres().createDatabase(database));
        new PostgresRegistryWriter(location).register(RowBuilder.registered(Roster.defaultRoster().members().get(0),
                5400).registration(), Optional.empty());
        SERVER.postgres().execute(database, "INSERT INTO mcp_server_runtimes SELECT (jsonb_populate_record(r, jsonb_build_object("
                + "'runtime_id', r.runtime_id || '-' || g))).* FROM mcp_server_runtimes r, generate_series(1, "
                + (rows - 1) + ") g");
        return database;
    }

    /**
     * A proxy in front of the server that passes what the client sends at once, and the server's answer a
     * kilobyte at a time every 200 ms: each of the driver's reads is answered well within its 2 s.
     */
    private static final class TricklingProxy implements AutoCloseable {
        private final ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

        TricklingProxy(int serverPort) throws IOException {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket client = listening.accept();
                        Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                        pump(client.getInputStream(), server.getOutputStream(), 0);
                        pump(server.getInputStream(), client.getOutputStream(), 200);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listening.getLocalPort();
        }

        private static void pump(InputStream in, OutputStream out, long pauseMillis) {
            Thread thread = new Thread(() -> {
                byte[] chunk = new byte[1024];
                try (in; out) {
                    for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
                        out.write(chunk, 0, read);
                        out.flush();
                        Thread.sleep(pauseMillis);
                    }
                } catch (IOException | InterruptedException ended) {
                    // either side has gone
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws IOException {
            listening.close();
        }
    }
}
