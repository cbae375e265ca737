package dev.fleet.registry.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PasswordFileFromHomeTest {

    @Test
    void anAbsoluteHomeNamesItsPgpass() {
        assertEquals("/tmp/alice/.pgpass", PasswordFileFromHome.chosen(Map.of("HOME", "/tmp/alice"), null));
        assertEquals("/tmp/alice/.pgpass", PasswordFileFromHome.chosen(Map.of("HOME", "/tmp/alice/"), null));
    }

    @Test
    void pgpassfileOrTheDriversPropertyWins() {
        assertNull(PasswordFileFromHome.chosen(Map.of("HOME", "/tmp/alice", "PGPASSFILE", "/etc/fleet/pgpass"), null));
        assertNull(PasswordFileFromHome.chosen(Map.of("HOME", "/tmp/alice"), "/etc/fleet/pgpass"));
    }

    @Test
    void aMissingRelativeOrEmptyHomeLeavesTheDriversChoice() {
        assertNull(PasswordFileFromHome.chosen(Map.of(), null));
        assertNull(PasswordFileFromHome.chosen(Map.of("HOME", ""), null));
        assertNull(PasswordFileFromHome.chosen(Map.of("HOME", "alice"), null));
        assertEquals("/tmp/alice/.pgpass", PasswordFileFromHome.chosen(Map.of("HOME", "/tmp/alice", "PGPASSFILE", " "),
                null), "a blank PGPASSFILE names no file");
    }
}
