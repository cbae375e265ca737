package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code postgresql://USER@HOST:PORT/DB} and nothing else (docs/CONTRACT.md, "Many hosts"): every part
 * of a strict character set, so no text of the caller's ever reaches the JDBC driver as a parameter
 * (issue 45: a percent-encoded {@code ?} in the database name overrode the reader's {@code readOnly},
 * switched its timeouts off, or named a class for the driver to load).
 */
class PostgresUrlTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "postgresql://fleet@127.0.0.1:5432/fleet%3FreadOnly%3Dfalse",
        "postgresql://fleet@127.0.0.1:5432/fleet%3FsocketTimeout%3D0%26connectTimeout%3D0",
        "postgresql://fleet@127.0.0.1:5432/fleet%3FsocketFactory%3Dorg.example.Anything",
        "postgresql://fleet@127.0.0.1:5432/fleet%3freadOnly%3dfalse",
        "postgresql://fleet@127.0.0.1:5432/fleet?readOnly=false",
        "postgresql://fleet@127.0.0.1:5432/fleet;readOnly=false",
        "postgresql://fleet@127.0.0.1:5432/fleet#x",
        "postgresql://fleet@127.0.0.1:5432/fleet%20x",
        "postgresql://fleet@127.0.0.1:5432/fl%65et",
        "postgresql://fleet@127.0.0.1:5432/a/b",
        "postgresql://fleet@127.0.0.1:5432/fleet/",
        "postgresql://fleet@127.0.0.1:5432//fleet",
        "postgresql://fleet@127.0.0.1:5432/",
        "postgresql://fleet@127.0.0.1:5432/fleet x",
        "postgresql://fleet@127.0.0.1:5432/fleet\nx",
        "postgresql://fleet@127.0.0.1:5432/flëet",
        // 64 characters: one more than PostgreSQL's identifier limit
        "postgresql://fleet@127.0.0.1:5432/abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl",
        // the user, host and port are as strict
        "postgresql://fl%65et@127.0.0.1:5432/fleet",
        "postgresql://fleet%3FreadOnly%3Dfalse@127.0.0.1:5432/fleet",
        "postgresql://fl eet@127.0.0.1:5432/fleet",
        "postgresql://@127.0.0.1:5432/fleet",
        "postgresql://a@b@127.0.0.1:5432/fleet",
        "postgresql://fleet@127.0.0.1%3FreadOnly%3Dfalse:5432/fleet",
        "postgresql://fleet@db_%2Fx:5432/fleet",
        "postgresql://fleet@-db:5432/fleet",
        "postgresql://fleet@db..example:5432/fleet",
        "postgresql://fleet@300.1.1.1:5432/fleet",
        "postgresql://fleet@127.0.0.1,127.0.0.2:5432/fleet",
        "postgresql://fleet@::1:5432/fleet",
        "postgresql://fleet@[::1%25eth0]:5432/fleet",
        "postgresql://fleet@[not-v6]:5432/fleet",
        "postgresql://fleet@:5432/fleet",
        "postgresql://fleet@db:0/fleet",
        "postgresql://fleet@db:65536/fleet",
        "postgresql://fleet@db:/fleet",
        "postgresql://fleet@db:54x2/fleet",
        "postgresql://fleet@db:-1/fleet",
        "postgresql://fleet@db",
        "postgresql://fleet:secret@db:5432/fleet",
    })
    void aDatabaseNameIsOnePathSegmentOfAStrictCharacterSetAndTheUserHostAndPortAreAsStrict(String url) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PostgresLocation.parse(url));
        assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
    }

    @Test
    void aRefusalSaysWhichPartAndWhatIsAccepted() {
        String message = assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse(
                "postgresql://fleet@127.0.0.1:5432/fleet%3FreadOnly%3Dfalse")).getMessage();

        assertTrue(message.contains("database name") && message.contains("fleet%3FreadOnly%3Dfalse")
                && message.contains("63"), message);
    }

    /** libpq takes {@code ?password=}, and a password typed where the port goes is as secret: neither is echoed. */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql://fleet@127.0.0.1:55433/fleetdb?password=fleetpw",
        "postgresql://fleet@127.0.0.1:55433/fleetdb#password=fleetpw", "postgresql://fleet@127.0.0.1:fleetpw/fleetdb"})
    void aPasswordInTheQueryOrWhereThePortGoesIsNeverEchoed(String url) {
        String message = assertThrows(IllegalArgumentException.class, () -> PostgresLocation.parse(url)).getMessage();
        assertFalse(message.contains("fleetpw"), message);
    }

    @Test
    void theAcceptedFormsNameEveryPart() {
        assertEquals(new PostgresLocation("fleet", "db.example", 6543, "registry"),
                PostgresLocation.parse("postgresql://fleet@db.example:6543/registry"));
        assertEquals(new PostgresLocation("fleet_ro", "127.0.0.1", 5432, "Fleet-registry.v2"),
                PostgresLocation.parse("postgresql://fleet_ro@127.0.0.1/Fleet-registry.v2"));
        assertEquals(new PostgresLocation("fleet", "[::1]", 5432, "fleet"),
                PostgresLocation.parse("postgresql://fleet@[::1]:5432/fleet"));
        assertEquals("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk", PostgresLocation.parse(
                "postgresql://fleet@db/abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk").database());
        assertEquals("postgresql://fleet@[::1]:5432/fleet",
                PostgresLocation.parse("postgresql://fleet@[::1]/fleet").display());
    }

    @Test
    void postgresIsTheSameSchemeAndEveryFormHasOneSpelling() {
        assertTrue(PostgresLocation.isUrl("postgres://fleet@db/x"));
        assertTrue(PostgresLocation.isUrl(" POSTGRESQL://fleet@db/x"));
        assertFalse(PostgresLocation.isUrl("/var/lib/registry.sqlite3"));
        PostgresLocation location = PostgresLocation.parse("postgresql://fleet@db.example:5432/registry");

        assertEquals(location, PostgresLocation.parse("postgres://fleet@db.example/registry"));
        assertEquals(location, PostgresLocation.parse("PostgreSQL://fleet@db.example:5432/registry"));
        assertEquals(location, PostgresLocation.parse(location.display()));
    }

    @Test
    void aLocationIsCheckedHoweverItIsMade() {
        assertThrows(IllegalArgumentException.class, () -> new PostgresLocation("fleet", "db", 5432,
                "fleet?readOnly=false"));
        assertThrows(IllegalArgumentException.class, () -> new PostgresLocation("fleet", "::1", 5432, "fleet"));
        assertThrows(IllegalArgumentException.class, () -> new PostgresLocation("fleet", "db", 0, "fleet"));
        assertThrows(IllegalArgumentException.class, () -> new PostgresLocation("fleet&ssl=false", "db", 5432, "x"));
    }

    /**
     * The connection is made of the parsed parts and the program's own settings, each through the data
     * source's setters: the reader is read-only and bounded, a server's session is not read-only, and the
     * password (from the environment) travels beside the URL, never in it.
     */
    @ParameterizedTest
    @EnumSource(PostgresLocation.Session.class)
    void theConnectionIsMadeOfThePartsAndTheProgramsOwnSettings(PostgresLocation.Session session) {
        PostgresLocation location = PostgresLocation.parse("postgres://fleet_ro@[::1]:6543/registry.v2");
        PGSimpleDataSource source = location.dataSource(Map.of("PGPASSWORD", "s3cret"), session);

        assertEquals("registry.v2", source.getDatabaseName());
        assertArrayEquals(new String[] {"[::1]"}, source.getServerNames());
        assertArrayEquals(new int[] {6543}, source.getPortNumbers());
        assertEquals("fleet_ro", source.getUser());
        assertEquals("s3cret", source.getPassword());
        assertEquals(session == PostgresLocation.Session.READER, source.getReadOnly());
        assertEquals("always", source.getReadOnlyMode());
        int login = session == PostgresLocation.Session.SERVER ? 30 : 2;
        assertEquals(login, source.getConnectTimeout());
        assertEquals(login, source.getLoginTimeout());
        assertEquals(session == PostgresLocation.Session.READER ? 2 : 30, source.getSocketTimeout());
        assertTrue(source.getUrl().startsWith("jdbc:postgresql://[::1]:6543/registry.v2?"), source.getUrl());
        assertFalse(source.getUrl().contains("s3cret"), source.getUrl());
    }
}
