package dev.fleet.cli.jar;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The version and the git commit this jar was built from, as the build recorded them in
 * {@code build.properties} ({@code --version}, {@code fleet_build_info}); "unknown" for what it
 * could not tell.
 */
public record BuildProperties(String version, String commit) {

    private static final String UNKNOWN = "unknown";
    /** Where the build writes it (fleet-cli-adapter/pom.xml): the CLI's root package, not this one's. */
    private static final String RESOURCE = "/dev/fleet/cli/build.properties";

    public static BuildProperties read() {
        Properties build = new Properties();
        try (InputStream in = BuildProperties.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                build.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException unreadable) {
            // Shown as unknown: a version is no reason to fail.
        }
        return new BuildProperties(build.getProperty("version", UNKNOWN), build.getProperty("commit", UNKNOWN));
    }
}
