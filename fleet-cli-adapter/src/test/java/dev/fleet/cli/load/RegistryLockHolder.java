package dev.fleet.cli.load;

import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A fault for {@link LoadAndFaultIT}, run as a process of its own on the test class path: another
 * tool that writes to the registry and holds its lock until told to let go.
 *
 * <ul>
 * <li>{@code transaction}: {@code BEGIN IMMEDIATE}, rewrite every row's heartbeat with itself, print
 * {@code in-transaction}; the test then stops this process (SIGSTOP) inside its transaction, resumes
 * it, and sends a line on stdin, on which it commits.</li>
 * <li>{@code exclusive}: {@code PRAGMA locking_mode=EXCLUSIVE}, {@code BEGIN EXCLUSIVE}, the same
 * write, print {@code locked}; on a line on stdin it commits and closes, which releases the lock.</li>
 * </ul>
 *
 * It waits for the lock itself, 30 s at a time. Whatever happens it exits when stdin ends (the test gone),
 * so it never outlives its test.
 */
public final class RegistryLockHolder {

    private RegistryLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        Path registry = Path.of(args[0]).toAbsolutePath();
        boolean exclusive = args[1].equals("exclusive");
        // The project's reader configures sqlite-jdbc's native library once per user (no uname, no
        // temp copy), as every fleet process does; constructing it opens nothing.
        new SqliteRegistryReader(registry);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry);
                Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 30000");
            if (exclusive) {
                statement.execute("PRAGMA locking_mode = EXCLUSIVE");
            }
            begin(statement, exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE");
            int rows = statement.executeUpdate("UPDATE mcp_server_runtimes SET last_heartbeat_at = last_heartbeat_at");
            System.out.println((exclusive ? "locked" : "in-transaction") + " " + rows);
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            statement.execute("COMMIT");
        }
        System.out.println("released");
        System.out.flush();
    }

    /**
     * Begins the transaction, however long fifty busy servers keep the lock from this tool: a busy
     * timeout is a wait on a starved host, not the fault under test. The test bounds the wait by
     * its own (scaled) wait for the line that says the lock is held, then ends this process.
     */
    private static void begin(Statement statement, String begin) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                statement.execute(begin);
                return;
            } catch (SQLException busy) {
                if (attempt >= 20 || !busy.getMessage().contains("SQLITE_BUSY")) {
                    throw busy;
                }
                System.err.println("lock holder: still busy after attempt " + attempt + ": " + busy.getMessage());
            }
        }
    }
}
