package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryLocationTest {

    @Test
    void fleetRegistryWinsWhenSet() {
        assertEquals(Path.of("/srv/fleet/registry.sqlite3"), RegistryLocation.resolve(Map.of(
                "FLEET_REGISTRY", "/srv/fleet/registry.sqlite3",
                "XDG_STATE_HOME", "/state",
                "HOME", "/home/op"), "/fallback"));
    }

    @Test
    void xdgStateHomeIsUsedWhenFleetRegistryIsUnsetOrBlank() {
        Path expected = Path.of("/state/gitea-tools/control_plane.sqlite3");
        assertEquals(expected, RegistryLocation.resolve(Map.of("XDG_STATE_HOME", "/state", "HOME", "/home/op"), null));
        assertEquals(expected, RegistryLocation.resolve(
                Map.of("FLEET_REGISTRY", "  ", "XDG_STATE_HOME", "/state", "HOME", "/home/op"), null));
    }

    @Test
    void homeLocalStateIsTheLastResort() {
        Path expected = Path.of("/home/op/.local/state/gitea-tools/control_plane.sqlite3");
        assertEquals(expected, RegistryLocation.resolve(Map.of("HOME", "/home/op"), "/fallback"));
        assertEquals(expected, RegistryLocation.resolve(Map.of("XDG_STATE_HOME", "", "HOME", "/home/op"), null));
        assertEquals(Path.of("/fallback/.local/state/gitea-tools/control_plane.sqlite3"),
                RegistryLocation.resolve(Map.of(), "/fallback"));
    }

    @Test
    void noHomeAtAllIsAClearError() {
        IllegalStateException error =
                assertThrows(IllegalStateException.class, () -> RegistryLocation.resolve(Map.of(), null));
        assertEquals("cannot locate the registry: set FLEET_REGISTRY, XDG_STATE_HOME or HOME (an absolute path)",
                error.getMessage());
    }

    /** The XDG spec: a relative path is invalid and ignored; it would put registries wherever a command runs. */
    @Test
    void aRelativeStateHomeIsIgnored() {
        Map<String, String> env = Map.of("XDG_STATE_HOME", "relative/dir", "HOME", "/home/op");
        assertEquals(Path.of("/home/op/.local/state/gitea-tools/control_plane.sqlite3"),
                RegistryLocation.resolve(env, null));
        assertTrue(RegistryLocation.ignoresStateHome(env));
        assertFalse(RegistryLocation.ignoresStateHome(Map.of("XDG_STATE_HOME", "/state")));
        assertFalse(RegistryLocation.ignoresStateHome(Map.of("XDG_STATE_HOME", "rel", "FLEET_REGISTRY", "/r")));
    }

    /**
     * A relative HOME would put the registry wherever a command runs, and split a fleet whose members a client
     * starts in other directories: it is ignored as a relative XDG_STATE_HOME is, and the account's home stands in.
     */
    @Test
    void aRelativeHomeIsIgnoredAndTheAccountsHomeStandsIn() {
        Map<String, String> env = Map.of("HOME", "rel/home");
        assertEquals(Path.of("/fallback/.local/state/gitea-tools/control_plane.sqlite3"),
                RegistryLocation.resolve(env, "/fallback"));
        assertTrue(RegistryLocation.ignoresHome(env));
        assertFalse(RegistryLocation.ignoresHome(Map.of("HOME", "/home/op")));
        assertFalse(RegistryLocation.ignoresHome(Map.of("HOME", "rel", "XDG_STATE_HOME", "/state")));
        assertFalse(RegistryLocation.ignoresHome(Map.of("HOME", "rel", "FLEET_REGISTRY", "/r")));
        IllegalStateException neither = assertThrows(IllegalStateException.class,
                () -> RegistryLocation.resolve(env, "also/relative"));
        assertEquals("cannot locate the registry: set FLEET_REGISTRY, XDG_STATE_HOME or HOME (an absolute path)",
                neither.getMessage());
    }

    /** A NUL stands in for what a non-UTF-8 locale makes of /tmp/josé: text that can be no path. */
    @Test
    void aHomeThatCannotBeAPathIsAOneLineErrorNamingIt() {
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> RegistryLocation.resolve(Map.of("HOME", "/tmp/jos\u0000"), null));
        assertTrue(error.getMessage().startsWith("cannot locate the registry: HOME cannot be a path in this "
                + "locale's charset ("), error.getMessage());
        assertTrue(error.getMessage().contains("LC_ALL=C.UTF-8"), error.getMessage());
        assertFalse(error.getMessage().contains("\n"));
        IllegalStateException state = assertThrows(IllegalStateException.class,
                () -> RegistryLocation.resolve(Map.of("XDG_STATE_HOME", "/s\u0000"), null));
        assertTrue(state.getMessage().contains("XDG_STATE_HOME cannot be a path"), state.getMessage());
    }
}
