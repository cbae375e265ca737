package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Serve's settings are checked where they are made, with the option's name in the one-line error. */
class ServeSettingsTest {

    @TempDir
    Path root;

    @Test
    void aHeartbeatThatNeverComesIsRefused() {
        assertEquals("--heartbeat-seconds must be positive, got 0", refused(8765, Duration.ZERO, root));
        assertEquals("--heartbeat-seconds must be positive, got -3", refused(8765, Duration.ofSeconds(-3), root));
    }

    @Test
    void aPortThatDoesNotExistIsRefused() {
        assertEquals("--port must be 0-65535, got 65536", refused(65_536, Duration.ofSeconds(30), root));
        assertEquals("--port must be 0-65535, got -1", refused(-1, Duration.ofSeconds(30), root));
    }

    @Test
    void aRepositoryRootThatIsNoDirectoryIsRefused() {
        Path missing = root.resolve("missing");
        assertEquals("--repository-root " + missing + " is not a directory",
                refused(0, Duration.ofSeconds(30), missing));
    }

    /** A root named through a folder that is not there is no directory, as the kernel resolves {@code missing/..}. */
    @Test
    void aRepositoryRootThroughAMissingFolderIsRefused() {
        Path through = root.resolve("missing/..");
        assertEquals("--repository-root " + through + " is not a directory", refused(0, Duration.ofSeconds(30), through));
    }

    @Test
    void goodSettingsKeepTheirValuesAndAnAbsoluteRoot() throws Exception {
        Files.createDirectories(root.resolve("sub"));
        ServeSettings settings = new ServeSettings(Transport.STDIO, "127.0.0.1", 65_535, Duration.ofSeconds(1),
                root.resolve("sub/..").resolve("."));
        assertEquals(root.toAbsolutePath().normalize(), settings.repositoryRoot());
        assertEquals(65_535, settings.port());
        assertEquals(Duration.ofSeconds(1), settings.heartbeat());
    }

    private static String refused(int port, Duration heartbeat, Path root) {
        return assertThrows(ConfigurationException.class,
                () -> new ServeSettings(Transport.STREAMABLE_HTTP, "127.0.0.1", port, heartbeat, root)).getMessage();
    }
}
