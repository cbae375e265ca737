package dev.fleet.mcp.stdio;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.Objects;

/**
 * The SDK's messages for its 2025 session, made from what {@link JsonRpcGate} read of a line once: the
 * id and method it read, and a tree of just the params' bytes, converted as the SDK's own reader
 * converts a line's text (plain JSON values, a map for an object). Only a response, which this server
 * never expects (it sends no requests), is read whole.
 */
final class SessionMessages {

    private final McpJsonMapper sdkMapper;
    /** Reads the parts the session gets as trees, with the limits the line was read with. */
    private final ObjectMapper json;

    SessionMessages(McpJsonMapper sdkMapper, JsonFactory lines) {
        this.sdkMapper = Objects.requireNonNull(sdkMapper, "sdkMapper");
        this.json = JsonMapper.builder(lines.copy()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    }

    /** The request; throws where the SDK's types cannot hold it. */
    McpSchema.JSONRPCRequest request(JsonRpcId id, String method, byte[] line, Params params) {
        return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, method,
                sdkMapper.convertValue(id(id), Object.class), sdkParams(line, params));
    }

    /** The notification, or null when its params are neither an object nor null. */
    McpSchema.JSONRPCNotification notification(String method, byte[] line, Params params) {
        try {
            return params == null || params.usable() ? new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
                    method, sdkParams(line, params)) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The response, or null where it is none the SDK can read (not "2.0", not exactly one of result and error). */
    McpSchema.JSONRPCResponse response(JsonRpcMessage message, byte[] line) {
        if (!(message instanceof Response) || !message.parts().versioned()) {
            return null;
        }
        try {
            return sdkMapper.convertValue(json.readTree(line, message.start(), message.end() - message.start()),
                    McpSchema.JSONRPCResponse.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The params of a message read once, read again as a tree from just their bytes; null when absent. */
    JsonNode params(byte[] line, Params params) {
        if (params == null) {
            return null;
        }
        try {
            return json.readTree(line, params.start(), params.end() - params.start());
        } catch (IOException e) {
            throw new IllegalStateException("params read once could not be read again", e);
        }
    }

    /** An id's JSON text as a tree (an id the SDK takes: a string or an integer). */
    JsonNode id(JsonRpcId id) {
        try {
            return json.readTree(id.json());
        } catch (JacksonException e) {
            throw new IllegalStateException("an id read once could not be read again", e);
        }
    }

    private Object sdkParams(byte[] line, Params params) {
        JsonNode tree = params(line, params);
        return tree == null || tree.isNull() ? null : sdkMapper.convertValue(tree, Object.class);
    }
}
