package dev.fleet.domain.port.out;

/**
 * Where a server's lifecycle tells the operator what happened to its registration. The server's
 * stderr is its operator log, so an adapter writes these there; the lifecycle itself does no I/O.
 */
public interface LifecycleLog {

    void info(String message);

    void warn(String message);

    void error(String message);
}
