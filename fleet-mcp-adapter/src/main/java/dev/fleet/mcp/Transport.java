package dev.fleet.mcp;

/** How a server talks to its client; the code is the registry's {@code transport} column. */
public enum Transport {
    STDIO("stdio"),
    STREAMABLE_HTTP("streamable_http");

    private final String code;

    Transport(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
