package dev.fleet.mcp.jsonrpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * A JSON-RPC error, and the one place its envelope is built ({@link JsonRpcEnvelope} builds the
 * others), for stdio, HTTP and the relay alike:
 * {@code {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}}}, the id as its request wrote it,
 * or null when the request named none MCP allows.
 *
 * @param code the JSON-RPC error code
 * @param message one line, written by fleet, never an exception's text as it came
 */
public record JsonRpcError(int code, String message) {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined: a bound of the server's is reached (sessions over HTTP, listens over stdio). */
    public static final int SERVER_BUSY = -32000;

    /** The response that answers the request of {@code id} with this error, as a tree (a batch holds several). */
    public ObjectNode node(JsonRpcId id) {
        ObjectNode response = JsonRpcEnvelope.answering(id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    /** The response that answers the request of {@code id} with this error, as UTF-8 bytes (one line, no newline). */
    public byte[] bytes(JsonRpcId id) {
        return node(id).toString().getBytes(StandardCharsets.UTF_8);
    }
}
