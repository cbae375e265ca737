package dev.fleet.mcp;

import dev.fleet.domain.port.out.LifecycleLog;

/** The lifecycle's messages on stderr, the operator log of a test server (stdout is the protocol's). */
final class StderrLifecycleLog implements LifecycleLog {

    @Override
    public void info(String message) {
        System.err.println("INFO " + message);
    }

    @Override
    public void warn(String message) {
        System.err.println("WARN " + message);
    }

    @Override
    public void error(String message) {
        System.err.println("ERROR " + message);
    }
}
