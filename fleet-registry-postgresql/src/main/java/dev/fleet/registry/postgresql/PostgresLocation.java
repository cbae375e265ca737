package dev.fleet.registry.postgresql;

import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A registry on PostgreSQL, named {@code postgresql://USER@HOST:PORT/DB} (docs/CONTRACT.md, "Many hosts"). The
 * password is never in the URL: {@code PGPASSWORD}, else the driver's own {@code ~/.pgpass}. Every
 * connection is bounded: connecting and logging in give up within {@link #LOGIN_TIMEOUT}, so a
 * database that is down, refusing or silent is an answer within 5 s, never a hang. A reader's every
 * round trip is bounded by {@link #READ_TIMEOUT}; a server's writes wait longer for one ({@link
 * #WRITE_TIMEOUT}), since a first migration holds the others behind its lock for seconds.
 */
public record PostgresLocation(String user, String host, int port, String database) {

    public static final String SCHEME = "postgresql://";
    public static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
    private static final int DEFAULT_PORT = 5432;

    /** Whether {@code value} names a PostgreSQL registry rather than a SQLite file. */
    public static boolean isUrl(String value) {
        return value != null && value.strip().toLowerCase(Locale.ROOT).startsWith(SCHEME);
    }

    /** @throws IllegalArgumentException naming what is wrong, in one line */
    public static PostgresLocation parse(String value) {
        URI uri;
        try {
            uri = new URI(value.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB): " + e.getReason());
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (uri.getHost() == null || uri.getUserInfo() == null || uri.getUserInfo().isBlank()
                || database.isBlank() || database.contains("/") || uri.getQuery() != null) {
            throw new IllegalArgumentException("not a PostgreSQL URL of the form postgresql://USER@HOST:PORT/DB: "
                    + value);
        }
        if (uri.getUserInfo().contains(":")) {
            throw new IllegalArgumentException("a PostgreSQL URL never carries the password: set PGPASSWORD or use "
                    + "~/.pgpass");
        }
        return new PostgresLocation(uri.getUserInfo(), uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                database);
    }

    /** The URL as shown to operators (it holds no secret). */
    public String display() {
        return SCHEME + user + "@" + host + ":" + port + "/" + database;
    }

    /** Who a connection is for, and so how long it waits: to log in, and then for each round trip. */
    public enum Session {
        /** The assessment path: read-only at the session's level, answered within 5 s. */
        READER(LOGIN_TIMEOUT, READ_TIMEOUT, true),
        /** A server's lifecycle: fifty servers starting at once queue for the postmaster, and for the first migration. */
        SERVER(WRITE_TIMEOUT, WRITE_TIMEOUT, false),
        /**
         * An operator's {@code registry migrate}: a database that does not answer is told within 5 s,
         * as to a reader, while the migration itself may wait out another's lock.
         */
        OPERATOR(LOGIN_TIMEOUT, WRITE_TIMEOUT, false);

        private final Duration login;
        private final Duration roundTrip;
        private final boolean readOnly;

        Session(Duration login, Duration roundTrip, boolean readOnly) {
            this.login = login;
            this.roundTrip = roundTrip;
            this.readOnly = readOnly;
        }
    }

    /** A new connection for {@code session}; the caller closes it. */
    Connection open(Session session) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + hostForUrl() + ":" + port + "/" + database,
                properties(System.getenv(), session));
    }

    Properties properties(Map<String, String> env, Session session) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        String password = env.get("PGPASSWORD");
        if (password != null && !password.isEmpty()) {
            properties.setProperty("password", password);
        }
        String login = String.valueOf(session.login.toSeconds());
        properties.setProperty("connectTimeout", login);
        properties.setProperty("loginTimeout", login);
        properties.setProperty("socketTimeout", String.valueOf(session.roundTrip.toSeconds()));
        properties.setProperty("ApplicationName", "fleet");
        // BEGIN READ ONLY for every transaction of a reader's connection: the server refuses any write.
        properties.setProperty("readOnly", String.valueOf(session.readOnly));
        properties.setProperty("readOnlyMode", "always");
        return properties;
    }

    private String hostForUrl() {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
