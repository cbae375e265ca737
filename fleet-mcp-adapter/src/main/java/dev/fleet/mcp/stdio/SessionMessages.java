package dev.fleet.mcp.stdio;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JacksonException;
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
    /**
     * Reads the parts the session gets as trees, strict where the SDK is lenient (one value, nothing after
     * it), and within Jackson's own bounds: a number of a million digits is refused, never decoded.
     */
    private final ObjectMapper json = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    SessionMessages(McpJsonMapper sdkMapper) {
        this.sdkMapper = Objects.requireNonNull(sdkMapper, "sdkMapper");
    }

    /** The request; throws where the SDK's types cannot hold it. */
    McpSchema.JSONRPCRequest request(JsonRpcId id, String method, JsonNode params) {
        return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, method,
                sdkMapper.convertValue(id(id), Object.class), sdkParams(params));
    }

    /** The notification (its params an object or null), or null where the SDK's types cannot hold it. */
    McpSchema.JSONRPCNotification notification(String method, JsonNode params) {
        try {
            return new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, sdkParams(params));
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

    /** A message's params (read once by the reader), read again as a tree from just their bytes; null when absent. */
    JsonNode params(byte[] line, Params params) throws JacksonException {
        if (params == null) {
            return null;
        }
        try {
            // As text, as the SDK reads a line: its bound on a key counts characters, a parser of bytes counts bytes.
            return json.readTree(new String(line, params.start(), params.end() - params.start(), UTF_8));
        } catch (JacksonException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("a line in memory could not be read", e);
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

    /** Params as the SDK's own reader makes them from a line's text: plain JSON values, a map for an object. */
    private Object sdkParams(JsonNode params) {
        return params == null || params.isNull() ? null : sdkMapper.convertValue(params, Object.class);
    }
}
