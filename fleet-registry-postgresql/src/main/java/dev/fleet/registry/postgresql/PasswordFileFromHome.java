package dev.fleet.registry.postgresql;

import java.util.Map;

/**
 * Where the driver looks for {@code ~/.pgpass}: under {@code $HOME}, as libpq (and so {@code psql}) looks, and
 * as fleet finds its own registry file. The driver alone would take the account's home from the password
 * database ({@code user.home}), so with {@code HOME} set elsewhere (a container, {@code sudo -E}, a test's
 * scratch home) {@code psql} would log in and fleet would be refused. An explicit {@code PGPASSFILE}, or the
 * driver's own {@value #PROPERTY} property, wins; a relative or empty {@code HOME} is ignored, as for the
 * registry.
 */
public final class PasswordFileFromHome {

    /** The system property the driver reads first for its password file (then {@code PGPASSFILE}, then {@code user.home}). */
    static final String PROPERTY = "org.postgresql.pgpassfile";

    private PasswordFileFromHome() {
    }

    /**
     * The password file {@code env} asks for under its {@code HOME}, or null when the driver's own choice stands:
     * the property or {@code PGPASSFILE} is set, or {@code HOME} is not an absolute path.
     */
    static String chosen(Map<String, String> env, String property) {
        String home = env.get("HOME");
        if (isSet(property) || isSet(env.get("PGPASSFILE")) || home == null || !home.startsWith("/")) {
            return null;
        }
        return home.endsWith("/") ? home + ".pgpass" : home + "/.pgpass";
    }

    /** Points the driver at {@code $HOME/.pgpass} for this JVM, where {@link #chosen} says so: once, at start-up. */
    public static void follow(Map<String, String> env) {
        String file = chosen(env, System.getProperty(PROPERTY));
        if (file != null) {
            System.setProperty(PROPERTY, file);
        }
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
