package dev.fleet.cli.serve;

import dev.fleet.domain.port.out.LifecycleLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The lifecycle's messages on the server's operator log (stderr, through SLF4J). */
public final class Slf4jLifecycleLog implements LifecycleLog {

    private static final Logger LOG = LoggerFactory.getLogger("dev.fleet.lifecycle");

    @Override
    public void info(String message) {
        LOG.info(message);
    }

    @Override
    public void warn(String message) {
        LOG.warn(message);
    }

    @Override
    public void error(String message) {
        LOG.error(message);
    }
}
