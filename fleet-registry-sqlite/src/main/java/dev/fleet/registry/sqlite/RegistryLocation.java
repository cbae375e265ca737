package dev.fleet.registry.sqlite;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where the registry lives by default (docs/CONTRACT.md): {@code $FLEET_REGISTRY} when set, else
 * {@code ${XDG_STATE_HOME:-$HOME/.local/state}/gitea-tools/control_plane.sqlite3}, a relative
 * {@code XDG_STATE_HOME} being ignored as unset. Resolved from an
 * environment map so it can be tested without touching the real environment.
 */
public final class RegistryLocation {

    public static final String REGISTRY_ENV = "FLEET_REGISTRY";
    public static final String STATE_HOME_ENV = "XDG_STATE_HOME";
    public static final String HOME_ENV = "HOME";

    private RegistryLocation() {
    }

    /** The default path for this process's environment; {@code user.home} stands in for an unset HOME. */
    public static Path defaultPath() {
        return resolve(System.getenv(), System.getProperty("user.home"));
    }

    /** Whether this process's environment names the registry ({@code FLEET_REGISTRY}), as {@link #resolve} reads it. */
    public static boolean namedByEnvironment() {
        return isSet(System.getenv(REGISTRY_ENV));
    }

    /**
     * @param env the environment to read
     * @param fallbackHome the home directory to use when {@code HOME} is unset or blank
     */
    public static Path resolve(Map<String, String> env, String fallbackHome) {
        Objects.requireNonNull(env, "env");
        String explicit = env.get(REGISTRY_ENV);
        if (isSet(explicit)) {
            return Path.of(explicit);
        }
        String stateHome = env.get(STATE_HOME_ENV);
        if (!isSet(stateHome) || !Path.of(stateHome).isAbsolute()) {
            String home = isSet(env.get(HOME_ENV)) ? env.get(HOME_ENV) : fallbackHome;
            if (!isSet(home)) {
                throw new IllegalStateException(
                        "cannot locate the registry: set FLEET_REGISTRY, XDG_STATE_HOME or HOME");
            }
            stateHome = Path.of(home, ".local", "state").toString();
        }
        return Path.of(stateHome, "gitea-tools", "control_plane.sqlite3");
    }

    /**
     * Whether {@code env} sets a relative {@code XDG_STATE_HOME} that the default path ignores: the
     * XDG base directory spec says such a value is invalid and to be ignored, as a path relative to
     * wherever a command happens to run would scatter registries.
     */
    public static boolean ignoresStateHome(Map<String, String> env) {
        String stateHome = env.get(STATE_HOME_ENV);
        return !isSet(env.get(REGISTRY_ENV)) && isSet(stateHome) && !Path.of(stateHome).isAbsolute();
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
