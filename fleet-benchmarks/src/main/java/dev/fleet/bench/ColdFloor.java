package dev.fleet.bench;

import dev.fleet.registry.sqlite.SqliteRegistryReader;

/**
 * The floors under a cold {@code fleet assess}, run by {@code scripts/perf.sh floor}, never by
 * {@code verify}. perf.sh starts this class through {@code ./fleet} itself, so the JVM gets the
 * launcher's java and options for {@code assess}, with its class-data archive: {@code
 * FLEET_JAVA_OPTS} names this class (with fleet.jar first on the class path, so everything but this
 * class comes from the archive),
 * and the arguments the launcher then passes ({@code -jar fleet.jar assess ...}) are ignored.
 *
 * <p>{@code -Dfleet.floor=jvm} returns at once: the JVM with fleet's jar, options and archive.
 * {@code -Dfleet.floor=driver} loads the SQLite driver as {@code assess} does first (its classes,
 * its native library from the cache, its logging, one connection to a database in memory), which
 * every assessment of a SQLite registry needs before it can read a row.
 */
public final class ColdFloor {

    private ColdFloor() {
    }

    public static void main(String[] ignored) {
        String floor = System.getProperty("fleet.floor", "");
        switch (floor) {
            case "jvm" -> { }
            case "driver" -> SqliteRegistryReader.loadDriver();
            default -> {
                System.err.println("ColdFloor: -Dfleet.floor=jvm or -Dfleet.floor=driver, got '" + floor + "'");
                System.exit(2);
            }
        }
    }
}
