package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON-RPC ids as keys: a string id and a number id that print alike are different ids. */
final class JsonRpcIds {

    private JsonRpcIds() {
    }

    /** The key of a usable id (a string or an integer), or null for none (absent, null, other types). */
    static String key(JsonNode id) {
        if (id == null) {
            return null;
        }
        if (id.isTextual()) {
            return "s" + id.textValue();
        }
        if (id.isIntegralNumber()) {
            return "n" + id.bigIntegerValue();
        }
        return null;
    }
}
