package dev.fleet.mcp.jsonrpc;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * A message's {@code id}, the one id type of every transport: its JSON text, exactly as written (a
 * refusal or the member's own answer names the request with it), and its key ({@link JsonRpcIds},
 * equal exactly when the ids are equal by value, §12.1), null when it is no id MCP allows
 * ({@code null}, {@code true}, an object).
 *
 * @param key the id's value as a key, null when the id is not legal
 * @param json the id's JSON text; {@code null} for an id that is not legal
 */
public record JsonRpcId(String key, String json) {

    /** The id that no request has: a reply that cannot name its request says so with it. */
    public static final JsonRpcId NONE = new JsonRpcId(null, "null");

    /** An integer as the MCP Java SDK's messages hold one (a {@code long}): no fraction, no exponent. */
    private static final Pattern SDK_INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,18})");

    /** Whether MCP allows this id on a request: a string or a number. */
    public boolean legal() {
        return key != null;
    }

    /**
     * Whether the MCP Java SDK's session can take this id: a string, or an integer written without a
     * fraction or exponent that fits a {@code long}. The SDK answers other numbers with a different
     * id, or not at all, so the plain stdio server refuses them; the relay takes every legal id.
     */
    public boolean fitsTheSdk() {
        if (!legal()) {
            return false;
        }
        if (json.startsWith("\"")) {
            return true;
        }
        if (!SDK_INTEGER.matcher(json).matches()) {
            return false;
        }
        try {
            Long.parseLong(json);
            return true;
        } catch (NumberFormatException beyondALong) {
            return false;
        }
    }

    /** The id as a tree node, written as the request wrote it (a number is never re-encoded, so never rounded). */
    public JsonNode node() {
        return legal() ? JsonNodeFactory.instance.rawValueNode(new RawValue(json)) : NullNode.instance;
    }

    /** The id an SDK message holds (a {@code String}, or an integer); anything else is {@link #NONE}. */
    public static JsonRpcId ofValue(Object id) {
        if (id instanceof String text) {
            return of(JsonNodeFactory.instance.textNode(text));
        }
        if (id instanceof Integer || id instanceof Long || id instanceof java.math.BigInteger) {
            String text = id.toString();
            return new JsonRpcId(JsonRpcIds.numberKey(text), text);
        }
        return NONE;
    }

    /** The id of a message read as a tree: null (absent) and ids MCP does not allow are {@link #NONE}. */
    public static JsonRpcId of(JsonNode id) {
        if (id == null) {
            return NONE;
        }
        if (id.isTextual()) {
            return new JsonRpcId(JsonRpcIds.stringKey(id.textValue()), id.toString());
        }
        if (id.isNumber()) {
            String text = id.toString();
            return new JsonRpcId(JsonRpcIds.numberKey(text), text);
        }
        return NONE;
    }

    /** The id whose value {@code parser} is at (the line in {@code buffer}); the value is consumed. */
    public static JsonRpcId read(JsonParser parser, byte[] buffer) throws IOException {
        return read(parser, buffer, 0);
    }

    /** {@link #read(JsonParser, byte[])} by a parser that reads {@code buffer} from {@code base} on. */
    static JsonRpcId read(JsonParser parser, byte[] buffer, int base) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            int start = base + (int) parser.currentTokenLocation().getByteOffset();
            String value = parser.getText(); // reads the string to its end, where the location then is
            int end = base + (int) parser.currentLocation().getByteOffset();
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
