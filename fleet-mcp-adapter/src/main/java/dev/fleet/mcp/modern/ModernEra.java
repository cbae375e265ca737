package dev.fleet.mcp.modern;

import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.util.List;

/**
 * How a message says it belongs to MCP's 2026-07-28 revision: its {@code params._meta} names a
 * protocol version ({@value #VERSION_KEY}). A 2025 client never sends that key, and an
 * {@code initialize} that carries it is a modern request too (the SDK's own rule), so every
 * transport routes on this one test, per message: a request or notification that claims a version, or a
 * {@code server/discover}, goes to the modern server, everything else to the 2025 session as before.
 */
public final class ModernEra {

    /** The revision this server serves statelessly. */
    public static final String VERSION = "2026-07-28";
    /** The revision this server serves to a client that opens with {@code initialize}, with its session. */
    public static final String LEGACY_VERSION = ProtocolVersions.MCP_2025_11_25;
    /** What {@code server/discover} answers in {@code supportedVersions}: both eras, the modern first. */
    public static final List<String> DISCOVERED = List.of(VERSION, LEGACY_VERSION);
    /** The per-request {@code _meta} key that carries a modern request's protocol version. */
    public static final String VERSION_KEY = JsonRpcReader.VERSION_KEY;
    /** The one method only the 2026-07-28 revision has, with or without its {@code _meta}. */
    private static final String DISCOVER = "server/discover";

    private ModernEra() {
    }

    /**
     * Whether a request or notification claims a protocol version in {@code params._meta}, as
     * {@link JsonRpcReader} read its params (null when absent) in its one pass over the line.
     */
    public static boolean claims(JsonRpcMessage.Params params) {
        return params != null && params.protocolVersion() != null && !params.protocolVersion().isBlank();
    }

    /**
     * Whether a request or notification belongs to the 2026-07-28 revision: it claims a version ({@link
     * #claims(JsonRpcMessage.Params)}), or it is {@code server/discover}, which only that revision has (the
     * contract, §13: a client that opens with it is served in that revision, and answered in its terms when it
     * leaves its {@code _meta} out).
     */
    public static boolean claims(String method, JsonRpcMessage.Params params) {
        return DISCOVER.equals(method) || claims(params);
    }
}
