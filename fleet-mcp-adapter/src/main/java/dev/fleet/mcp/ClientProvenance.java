package dev.fleet.mcp;

import dev.fleet.domain.Registration;

/** Who started the server: an MCP client (stdio children) or an operator (a daemon over HTTP). */
public enum ClientProvenance {
    CLIENT_MANAGED(Registration.CLIENT_MANAGED),
    OPERATOR_MANAGED(Registration.OPERATOR_MANAGED);

    private final String code;

    ClientProvenance(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The usual provenance for a transport: a stdio server is a client's child, an HTTP one an operator's daemon. */
    public static ClientProvenance typicalFor(Transport transport) {
        return transport == Transport.STDIO ? CLIENT_MANAGED : OPERATOR_MANAGED;
    }
}
