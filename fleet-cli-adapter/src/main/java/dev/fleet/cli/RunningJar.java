package dev.fleet.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The jar this CLI runs from, and the java running it: what the verbs that start fleet again name. */
final class RunningJar {

    private RunningJar() {
    }

    /** The jar's absolute, normalized path. */
    static Path path() {
        try {
            return Path.of(RunningJar.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toAbsolutePath().normalize();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the fleet jar: " + e.getMessage(), e);
        }
    }

    /** The java binary of this very JVM. */
    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
