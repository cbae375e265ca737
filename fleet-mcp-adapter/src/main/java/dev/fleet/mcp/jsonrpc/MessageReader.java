package dev.fleet.mcp.jsonrpc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Fault;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Parts;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import java.io.IOException;

/**
 * One message of a line, read by {@link JsonRpcReader} as the parser meets it: the members that
 * route it are kept, everything else is skipped unread (a tool's arguments are never decoded).
 */
final class MessageReader {

    private boolean hasMethod;
    private String method;
    /** Null while no {@code id} member was met. */
    private JsonRpcId id;
    private boolean versioned;
    private boolean hasResult;
    private boolean hasError;
    private Params params;
    /** Whether {@code id}, {@code method}, {@code result} or {@code error} came twice, where that makes no message. */
    private final boolean routedOnce;
    private boolean routedTwice;

    private MessageReader(boolean routedOnce) {
        this.routedOnce = routedOnce;
    }

    /** The element of a batch the parser is at: an object read as a message, anything else skipped. */
    static JsonRpcMessage element(JsonParser parser, byte[] buffer, boolean routedOnce) throws IOException {
        if (parser.currentToken() == JsonToken.START_OBJECT) {
            return object(parser, buffer, routedOnce);
        }
        int start = (int) parser.currentTokenLocation().getByteOffset();
        String type = typeOf(parser.currentToken());
        int end = JsonRpcReader.end(parser);
        return new Invalid(Fault.NOT_AN_OBJECT, type, null, null, new Parts(start, end, false, false, false, null));
    }

    /**
     * The object the parser is at (its opening brace), read as a message; {@code routedOnce}: one that holds
     * {@code id}, {@code method}, {@code result} or {@code error} twice is {@link Fault#ROUTED_KEY_TWICE}.
     */
    static JsonRpcMessage object(JsonParser parser, byte[] buffer, boolean routedOnce) throws IOException {
        int start = (int) parser.currentTokenLocation().getByteOffset();
        MessageReader message = new MessageReader(routedOnce);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            message.member(name, value, parser, buffer);
        }
        int end = JsonRpcReader.end(parser);
        return message.message(new Parts(start, end, message.versioned, message.hasResult, message.hasError,
                message.params));
    }

    /** The JSON type of a value that is no object, as a refusal names it. */
    static String typeOf(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "array";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> "object";
        };
    }

    private void member(String name, JsonToken value, JsonParser parser, byte[] buffer) throws IOException {
        routedTwice |= switch (name) {
            case "method" -> hasMethod;
            case "id" -> id != null;
            case "result" -> hasResult;
            case "error" -> hasError;
            default -> false;
        };
        switch (name) {
            case "method" -> {
                hasMethod = true;
                method = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                parser.skipChildren();
            }
            case "id" -> id = JsonRpcId.read(parser, buffer);
            case "jsonrpc" -> {
                versioned = value == JsonToken.VALUE_STRING && "2.0".equals(parser.getText());
                parser.skipChildren();
            }
            case "result" -> {
                hasResult = true;
                parser.skipChildren();
            }
            case "error" -> {
                hasError = true;
                parser.skipChildren();
            }
            case "params" -> params = params(parser, buffer);
            default -> parser.skipChildren();
        }
    }

    private JsonRpcMessage message(Parts parts) {
        if (routedOnce && routedTwice) {
            return new Invalid(Fault.ROUTED_KEY_TWICE, "a message holds id, method, result or error twice",
                    JsonRpcId.NONE, null, parts);
        }
        if (hasMethod) {
            if (id != null && !id.legal()) {
                return new Invalid(Fault.ID_NOT_LEGAL, "an id is a string or a number", JsonRpcId.NONE, method,
                        parts);
            }
            if (method == null) {
                return new Invalid(Fault.METHOD_NOT_A_STRING, "a method is a string", id, null, parts);
            }
            return id != null ? new Request(id, method, parts) : new Notification(method, parts);
        }
        if (!hasResult && !hasError) {
            return new Invalid(Fault.NEITHER, "neither a request, a notification nor a response", id, null, parts);
        }
        if (id == null || hasResult == hasError) {
            return new Invalid(Fault.MALFORMED_RESPONSE, "a response has an id and exactly one of result and error",
                    id, null, parts);
        }
        return new Response(id, parts);
    }

    /** The params at the parser: where they lie, and {@code name}, {@code uri}, {@code requestId}, {@code _meta}'s version. */
    private static Params params(JsonParser parser, byte[] buffer) throws IOException {
        int start = (int) parser.currentTokenLocation().getByteOffset();
        JsonToken token = parser.currentToken();
        if (token != JsonToken.START_OBJECT) {
            int end = JsonRpcReader.end(parser);
            return new Params(token == JsonToken.VALUE_NULL ? Params.Kind.NULL : Params.Kind.OTHER, start, end, null,
                    null, null, null);
        }
        String named = null;
        String uri = null;
        JsonRpcId requestId = null;
        String version = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "name" -> named = text(value, parser);
                case "uri" -> uri = text(value, parser);
                case "requestId" -> requestId = JsonRpcId.read(parser, buffer);
                case "_meta" -> version = version(parser);
                default -> parser.skipChildren();
            }
        }
        return new Params(Params.Kind.OBJECT, start, JsonRpcReader.end(parser), named, uri, requestId, version);
    }

    /** The protocol version {@code _meta} (at the parser) claims, when a string; the value is consumed. */
    private static String version(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        String version = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            boolean claim = JsonRpcReader.VERSION_KEY.equals(parser.currentName());
            JsonToken value = parser.nextToken();
            if (claim) {
                version = text(value, parser);
            } else {
                parser.skipChildren();
            }
        }
        return version;
    }

    private static String text(JsonToken value, JsonParser parser) throws IOException {
        String text = value == JsonToken.VALUE_STRING ? parser.getText() : null;
        parser.skipChildren();
        return text;
    }
}
