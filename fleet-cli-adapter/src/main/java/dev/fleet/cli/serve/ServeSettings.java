package dev.fleet.cli.serve;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.option.KernelPath;
import dev.fleet.domain.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How {@code fleet serve} serves, from its options, checked once, here: a heartbeat that comes, a
 * port that exists, a repository root that is a directory. What it is built from is the operator's
 * input, so a value out of range is a {@link ConfigurationException} naming the option (exit 2);
 * past this record, every value is known good and is passed on as it is.
 *
 * @param transport how the MCP client reaches the server
 * @param host the HTTP bind address (unused over stdio)
 * @param port the HTTP port, 0 for a free one (unused over stdio)
 * @param heartbeat how often the server heartbeats its registration
 * @param repositoryRoot the checkout the server works in, absolute and normalized
 */
record ServeSettings(Transport transport, String host, int port, Duration heartbeat, Path repositoryRoot) {

    ServeSettings {
        if (heartbeat.isNegative() || heartbeat.isZero()) {
            throw new ConfigurationException("--heartbeat-seconds must be positive, got " + heartbeat.toSeconds());
        }
        if (port < 0 || port > 65_535) {
            throw new ConfigurationException("--port must be 0-65535, got " + port);
        }
        repositoryRoot = KernelPath.of(repositoryRoot);
        if (!Files.isDirectory(repositoryRoot)) {
            throw new ConfigurationException("--repository-root " + repositoryRoot + " is not a directory");
        }
    }
}
