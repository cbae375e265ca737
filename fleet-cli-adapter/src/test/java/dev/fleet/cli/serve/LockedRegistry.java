package dev.fleet.cli.serve;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Another tool holding a registry file locked, as a test's own SQLite connection: {@code BEGIN EXCLUSIVE}
 * in SQLite's EXCLUSIVE locking mode, so no server can read or write it until {@link #close()}, which
 * lets the lock go with the connection. A server started meanwhile keeps its registration retrying.
 */
final class LockedRegistry implements AutoCloseable {

    private final Connection connection;

    private LockedRegistry(Connection connection) {
        this.connection = connection;
    }

    /** Locks {@code registry}, creating the file if need be. */
    static LockedRegistry lock(Path registry) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA locking_mode = EXCLUSIVE");
            statement.execute("BEGIN EXCLUSIVE");
            statement.execute("CREATE TABLE held_by_another_tool (a)");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new LockedRegistry(connection);
    }

    /**
     * Waits until {@code pid} registers, waiting for this lock: it holds the registry file open for writing
     * throughout (a server's look at the file at start, beside building the server, opens it read-only).
     */
    static void awaitRegistering(long pid, Path registry) throws InterruptedException {
        long[] openSince = {0};
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(25), () -> {
            if (!holdsOpenForWriting(pid, registry)) {
                openSince[0] = 0;
                return false;
            }
            openSince[0] = openSince[0] == 0 ? System.nanoTime() : openSince[0];
            return System.nanoTime() - openSince[0] > TimeUnit.MILLISECONDS.toNanos(300);
        }, "pid " + pid + " to hold " + registry + " open for writing, registering");
    }

    /** Lets the lock go. */
    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** Whether {@code pid} has {@code file} open read-write ({@code O_RDWR} in its descriptor's flags). */
    private static boolean holdsOpenForWriting(long pid, Path file) {
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    if (!Files.readSymbolicLink(fd).equals(file)) {
                        return false;
                    }
                    Path info = Path.of("/proc/" + pid + "/fdinfo/" + fd.getFileName());
                    return Files.readAllLines(info).stream().filter(line -> line.startsWith("flags:"))
                            .anyMatch(line -> (Integer.parseInt(line.substring(6).trim(), 8) & 3) == 2);
                } catch (IOException | NumberFormatException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            return false;
        }
    }
}
