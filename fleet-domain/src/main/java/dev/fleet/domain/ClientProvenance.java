package dev.fleet.domain;

/**
 * Who started the server: an MCP client (stdio children) or an operator (a daemon over HTTP). The
 * code is the registry's {@code client_provenance} column.
 */
public enum ClientProvenance implements Code {
    CLIENT_MANAGED,
    OPERATOR_MANAGED;

    /** The usual provenance for a transport: a stdio server is a client's child, an HTTP one an operator's daemon. */
    public static ClientProvenance typicalFor(Transport transport) {
        return transport == Transport.STDIO ? CLIENT_MANAGED : OPERATOR_MANAGED;
    }
}
