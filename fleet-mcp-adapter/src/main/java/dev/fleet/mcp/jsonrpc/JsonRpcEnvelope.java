package dev.fleet.mcp.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one place the JSON-RPC envelope of a message fleet writes itself is built, for stdio, HTTP and the
 * relay alike: a success result, a notification, and (through {@link JsonRpcError}) an error. The id is
 * written as its request wrote it ({@link JsonRpcId#node()}), so a number is never re-encoded.
 */
public final class JsonRpcEnvelope {

    public static final String VERSION = "2.0";

    private JsonRpcEnvelope() {
    }

    /** {@code {"jsonrpc":"2.0","id":ID,"result":RESULT}}: the answer to the request of {@code id}. */
    public static ObjectNode result(JsonRpcId id, JsonNode result) {
        ObjectNode response = answering(id);
        response.set("result", result);
        return response;
    }

    /** {@code {"jsonrpc":"2.0","method":METHOD,"params":PARAMS}}. */
    public static ObjectNode notification(String method, ObjectNode params) {
        ObjectNode notification = JsonNodeFactory.instance.objectNode();
        notification.put("jsonrpc", VERSION);
        notification.put("method", method);
        notification.set("params", params);
        return notification;
    }

    /** A response's first members, {@code jsonrpc} and {@code id}: its result or error follows. */
    static ObjectNode answering(JsonRpcId id) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.put("jsonrpc", VERSION);
        response.set("id", id.node());
        return response;
    }
}
