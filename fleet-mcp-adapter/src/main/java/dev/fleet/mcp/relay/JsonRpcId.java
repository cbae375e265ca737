package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * A message's {@code id} as the line holds it: its JSON text, exactly as written (a refusal or the
 * member's own answer names the request with it), and its key ({@link JsonRpcIds}), null when it is
 * no id MCP allows ({@code null}, {@code true}, an object).
 */
record JsonRpcId(String key, String json) {

    /** The id that no request has: a reply that cannot name its request says so with it. */
    static final JsonRpcId NONE = new JsonRpcId(null, "null");

    /** Whether MCP allows this id on a request: a string or a number. */
    boolean legal() {
        return key != null;
    }

    /** The id whose value {@code parser} is at (the line in {@code buffer}); the value is consumed. */
    static JsonRpcId read(JsonParser parser, byte[] buffer) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            int start = (int) parser.currentTokenLocation().getByteOffset();
            String value = parser.getText(); // reads the string to its end, where the location then is
            int end = (int) parser.currentLocation().getByteOffset();
            return new JsonRpcId(JsonRpcIds.stringKey(value), new String(buffer, start, end - start, UTF_8));
        }
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            String text = parser.getText(); // the number as written: never converted, so never rounded
            return new JsonRpcId(JsonRpcIds.numberKey(text), text);
        }
        parser.skipChildren();
        return NONE;
    }
}
