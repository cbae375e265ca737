package dev.fleet.registry.postgresql;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A registry on PostgreSQL, named {@code postgresql://USER@HOST:PORT/DB} (docs/CONTRACT.md, "Many hosts";
 * {@link PostgresUrl} says what each part may hold, and every location, however made, passes its checks).
 * The password is never in the URL: {@code PGPASSWORD}, else the driver's own {@code ~/.pgpass}. Every
 * connection is bounded: connecting and logging in give up within {@link #LOGIN_TIMEOUT}, so a
 * database that is down, refusing or silent is an answer within 5 s, never a hang. A reader's every
 * round trip is bounded by {@link #READ_TIMEOUT}; a server's writes wait longer for one ({@link
 * #WRITE_TIMEOUT}), since a first migration holds the others behind its lock for seconds.
 *
 * @param host a host name, a dotted IPv4 address, or an IPv6 address in brackets
 */
public record PostgresLocation(String user, String host, int port, String database) {

    public static final String SCHEME = "postgresql://";
    /** The one form a registry URL takes, as an error shows it. */
    public static final String FORM = PostgresUrl.FORM;
    public static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
    /** How long a reader waits for another session's lock on the table before the registry reads as locked. */
    public static final Duration READ_LOCK_WAIT = Duration.ofSeconds(1);
    /**
     * How long one attempt of a write waits for another session's lock on the table before it is told so
     * (55P03, locked), well within its {@link #WRITE_TIMEOUT}: past that, the driver closed the session and the
     * write read as unreachable, sending the operator to a server that had answered. The writer tries a
     * locked write a few times, so a registration meets a held lock for about as long as on SQLite (30 s).
     */
    public static final Duration WRITE_LOCK_WAIT = Duration.ofSeconds(5);
    /**
     * The most bytes of one answer a reader's driver buffers: a registry's 64 Mi characters of text (RowTally),
     * with room for their encoding. A view of larger rows is refused as it arrives, before the heap holds it.
     */
    public static final long READ_BYTES = 128L << 20;
    /** Every session's search path: PostgreSQL's own catalog, nothing any role can create in. */
    static final String SEARCH_PATH = "pg_catalog";

    /** @throws IllegalArgumentException naming the part that is wrong, in one line */
    public PostgresLocation {
        PostgresUrl.check(user, host, port, database);
    }

    /** Whether {@code value} names a PostgreSQL registry (either scheme, any case) rather than a SQLite file. */
    public static boolean isUrl(String value) {
        return PostgresUrl.isUrl(value);
    }

    /** @throws IllegalArgumentException naming what is wrong, in one line */
    public static PostgresLocation parse(String value) {
        return PostgresUrl.parse(value);
    }

    /** The URL as shown to operators (it holds no secret), in the one spelling every form of it parses back to. */
    public String display() {
        return SCHEME + user + "@" + host + ":" + port + "/" + database;
    }

    /** Who a connection is for, and so how long it waits: to log in, and then for each round trip. */
    public enum Session {
        /** The assessment path: read-only at the session's level, answered within 5 s. */
        READER(LOGIN_TIMEOUT, READ_TIMEOUT, READ_LOCK_WAIT, true),
        /** A server's lifecycle: fifty servers starting at once queue for the postmaster, and for the first migration. */
        SERVER(WRITE_TIMEOUT, WRITE_TIMEOUT, WRITE_LOCK_WAIT, false),
        /**
         * An operator's {@code registry migrate}: a database that does not answer is told within 5 s,
         * as to a reader, while the migration itself may wait out another's lock.
         */
        OPERATOR(LOGIN_TIMEOUT, WRITE_TIMEOUT, WRITE_LOCK_WAIT, false);

        private final Duration login;
        private final Duration roundTrip;
        private final Duration lockWait;
        private final boolean readOnly;

        Session(Duration login, Duration roundTrip, Duration lockWait, boolean readOnly) {
            this.login = login;
            this.roundTrip = roundTrip;
            this.lockWait = lockWait;
            this.readOnly = readOnly;
        }
    }

    /** A new connection for {@code session}; the caller closes it. */
    Connection open(Session session) throws SQLException {
        return dataSource(System.getenv(), session).getConnection();
    }

    /**
     * Where and how to connect, set part by part through the driver's own setters (which hand each value to
     * the driver encoded): this location's checked parts, and every connection property the program's own.
     * Nothing is ever appended to a JDBC URL, so no text of the caller's can set a property.
     */
    PGSimpleDataSource dataSource(Map<String, String> env, Session session) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setServerNames(new String[] {host});
        source.setPortNumbers(new int[] {port});
        source.setDatabaseName(database);
        source.setUser(user);
        String password = env.get("PGPASSWORD");
        if (password != null && !password.isEmpty()) {
            source.setPassword(password);
        }
        int login = (int) session.login.toSeconds();
        source.setConnectTimeout(login);
        source.setLoginTimeout(login);
        source.setSocketTimeout((int) session.roundTrip.toSeconds());
        source.setApplicationName("fleet");
        // Names resolve in pg_catalog alone, whatever a role's or the database's search_path says: a function
        // or operator another role created (in public, say) can never stand in for PostgreSQL's own, and run
        // with this session's rights; the registry's table is named in its schema (PostgresJooq.SCHEMA).
        // A session waits at most its lock wait (READ_LOCK_WAIT, WRITE_LOCK_WAIT) for a lock another session holds
        // on the table, and is then told so (55P03: locked), well before its statement's or its socket's timeout
        // could end it instead.
        source.setOptions("-c search_path=" + SEARCH_PATH + " -c lock_timeout=" + session.lockWait.toMillis());
        // BEGIN READ ONLY for every transaction of a reader's connection: the server refuses any write.
        source.setReadOnly(session.readOnly);
        if (session.readOnly) {
            source.setMaxResultBuffer(Long.toString(READ_BYTES));
        }
        source.setReadOnlyMode("always");
        return source;
    }
}
