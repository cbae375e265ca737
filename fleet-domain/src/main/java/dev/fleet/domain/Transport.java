package dev.fleet.domain;

/** How a server talks to its client; the code is the registry's {@code transport} column. */
public enum Transport implements Code {
    STDIO,
    STREAMABLE_HTTP
}
