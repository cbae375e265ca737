package dev.fleet.registry.sqlite;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where the registry lives by default (docs/CONTRACT.md): {@code $FLEET_REGISTRY} when set, else
 * {@code ${XDG_STATE_HOME:-$HOME/.local/state}/gitea-tools/control_plane.sqlite3}, a relative
 * {@code XDG_STATE_HOME} or {@code HOME} being ignored as unset. Resolved from an
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
     * @throws IllegalStateException when no variable locates the registry, or the one that does
     *     cannot be a path (one line, naming the variable)
     */
    public static Path resolve(Map<String, String> env, String fallbackHome) {
        Objects.requireNonNull(env, "env");
        String explicit = env.get(REGISTRY_ENV);
        if (isSet(explicit)) {
            return path(REGISTRY_ENV, explicit);
        }
        String stateHome = env.get(STATE_HOME_ENV);
        if (!isSet(stateHome) || !absolute(stateHome)) {
            String home = isSet(env.get(HOME_ENV)) && absolute(env.get(HOME_ENV)) ? env.get(HOME_ENV) : fallbackHome;
            if (!isSet(home) || !absolute(home)) {
                throw new IllegalStateException(
                        "cannot locate the registry: set FLEET_REGISTRY, XDG_STATE_HOME or HOME (an absolute path)");
            }
            return inStateHome(path(HOME_ENV, home).resolve(".local").resolve("state"));
        }
        return inStateHome(path(STATE_HOME_ENV, stateHome));
    }

    /**
     * Whether {@code file} is where the default location puts the registry in an existing state folder,
     * {@code STATE/gitea-tools/control_plane.sqlite3}: a path named so, as {@code mcp-config} pins the location
     * {@code XDG_STATE_HOME} gave, is that location, whose writer makes its {@code gitea-tools} folder.
     */
    public static boolean isInStateHome(Path file) {
        Path absolute = file.toAbsolutePath();
        Path folder = absolute.getParent();
        Path stateHome = folder == null ? null : folder.getParent();
        return stateHome != null && absolute.equals(inStateHome(stateHome)) && Files.isDirectory(stateHome);
    }

    private static Path inStateHome(Path stateHome) {
        return stateHome.resolve("gitea-tools").resolve("control_plane.sqlite3");
    }

    /**
     * {@code value} as a path. Java decodes the environment with the locale's charset, so without a
     * UTF-8 locale a name such as {@code /tmp/josé} holds characters no file name can: that is a
     * configuration the operator can fix, said in one line, not a crash.
     *
     * @throws IllegalStateException when {@code value} cannot be a path here
     */
    private static Path path(String variable, String value) {
        String cannot = "cannot locate the registry: " + variable + " cannot be a path in this locale's charset ("
                + System.getProperty("sun.jnu.encoding", "unknown") + ")";
        String remedy = "; run with a UTF-8 locale (e.g. LC_ALL=C.UTF-8), or name the registry with --registry or "
                + REGISTRY_ENV;
        if (value.indexOf('\uFFFD') >= 0) {
            // How Java read bytes that are not text in the locale's charset: another file would be opened.
            throw new IllegalStateException(cannot + ": it holds bytes that are not text in it, so another file "
                    + "would be opened" + remedy);
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalStateException(cannot + remedy, e);
        }
    }

    /** Whether {@code env}'s {@code XDG_STATE_HOME} locates the registry: no {@code FLEET_REGISTRY}, and an absolute one. */
    public static boolean locatedByStateHome(Map<String, String> env) {
        String stateHome = env.get(STATE_HOME_ENV);
        return !isSet(env.get(REGISTRY_ENV)) && isSet(stateHome) && absolute(stateHome);
    }

    /**
     * Whether {@code env} sets a relative {@code XDG_STATE_HOME} that the default path ignores: the
     * XDG base directory spec says such a value is invalid and to be ignored, as a path relative to
     * wherever a command happens to run would scatter registries.
     */
    public static boolean ignoresStateHome(Map<String, String> env) {
        String stateHome = env.get(STATE_HOME_ENV);
        return !isSet(env.get(REGISTRY_ENV)) && isSet(stateHome) && !absolute(stateHome);
    }

    /**
     * Whether {@code env} sets a relative {@code HOME} that the default path ignores, as it ignores a relative
     * {@code XDG_STATE_HOME}: members a client starts in other directories would each open another registry.
     */
    public static boolean ignoresHome(Map<String, String> env) {
        String home = env.get(HOME_ENV);
        String stateHome = env.get(STATE_HOME_ENV);
        return !isSet(env.get(REGISTRY_ENV)) && !(isSet(stateHome) && absolute(stateHome)) && isSet(home)
                && !absolute(home);
    }

    /** Absolute as the XDG spec means it, read from the text: a value that cannot be a path is judged later, by {@link #path}. */
    private static boolean absolute(String value) {
        return value.startsWith("/");
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
