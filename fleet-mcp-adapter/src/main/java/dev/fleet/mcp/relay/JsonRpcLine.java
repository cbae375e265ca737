package dev.fleet.mcp.relay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.stdio.BoundedLines;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the relay needs to know of one line, read in one streaming pass and never made a tree (the
 * contract, §12: each line parsed once; a message that passes unchanged is passed as the bytes it came
 * in): whether it is one JSON value without a duplicate key, and of each JSON-RPC message in it the
 * members routing looks at ({@link Message}) and where it lies in the line.
 *
 * <p>Only the line limit bounds a message (§12.1): numbers, strings and keys as long as a line may be;
 * nesting deeper than {@value #MAX_DEPTH} levels is refused.
 */
final class JsonRpcLine {

    static final int MAX_DEPTH = 1000;
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNumberLength(BoundedLines.MAX_LINE_BYTES)
            .maxStringLength(BoundedLines.MAX_LINE_BYTES)
            .maxNameLength(BoundedLines.MAX_LINE_BYTES)
            .maxNestingDepth(MAX_DEPTH)
            .build();
    /** Strict: a duplicate key is not one message (the child might read another {@code name} than the relay). */
    static final JsonFactory STRICT = JsonFactory.builder().streamReadConstraints(LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /** Lenient, to find a refused request's id despite a duplicate key elsewhere. */
    private static final JsonFactory LENIENT = JsonFactory.builder().streamReadConstraints(LIMITS).build();

    /** What a line is, as a whole. */
    enum Shape { BLANK, OBJECT, BATCH, NOT_AN_OBJECT, NOT_JSON, DUPLICATE_KEY, TOO_DEEP }

    /**
     * One element of a line: where it lies ({@code end} exclusive) and, when it is an object, the
     * members that route it. {@code method} is null when absent or not a string, {@code id} null when
     * absent; of {@code params} only {@code name}, {@code uri} and {@code requestId} are read.
     */
    record Message(boolean object, int start, int end, boolean hasMethod, String method, JsonRpcId id,
            boolean hasResult, boolean hasError, String paramsName, String paramsUri, JsonRpcId requestId) {

        boolean isRequest() {
            return hasMethod && id != null;
        }

        boolean isNotification() {
            return hasMethod && id == null;
        }
    }

    /** A line's shape, its messages (one for an object, each element of a batch) and where a batch closes. */
    record Scan(Shape shape, List<Message> messages, int close) {
        Message message() {
            return messages.get(0);
        }
    }

    private JsonRpcLine() {
    }

    /** Reads the line in {@code buffer[0, length)}. */
    static Scan read(byte[] buffer, int length) {
        try (JsonParser parser = STRICT.createParser(buffer, 0, length)) {
            JsonToken first = parser.nextToken();
            Scan scan;
            if (first == null) {
                return new Scan(Shape.BLANK, List.of(), -1);
            } else if (first == JsonToken.START_OBJECT) {
                scan = new Scan(Shape.OBJECT, List.of(element(parser, buffer)), -1);
            } else if (first == JsonToken.START_ARRAY) {
                List<Message> messages = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    messages.add(element(parser, buffer));
                }
                scan = new Scan(Shape.BATCH, messages, (int) parser.currentTokenLocation().getByteOffset());
            } else {
                parser.skipChildren();
                scan = new Scan(Shape.NOT_AN_OBJECT, List.of(), -1);
            }
            return parser.nextToken() == null ? scan : new Scan(Shape.NOT_JSON, List.of(), -1);
        } catch (StreamConstraintsException tooDeep) {
            return new Scan(Shape.TOO_DEEP, List.of(), -1); // the only limit below the line's
        } catch (JsonParseException e) {
            boolean duplicate = String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field");
            return new Scan(duplicate ? Shape.DUPLICATE_KEY : Shape.NOT_JSON, List.of(), -1);
        } catch (IOException e) {
            return new Scan(Shape.NOT_JSON, List.of(), -1);
        }
    }

    /**
     * The id of a line that could not be read as one message, when it can still be read: the line's
     * object has exactly one {@code id} at its top level, a string or a number, before anything that
     * stops reading (a refused request is answered with its own id, so the client never waits on it).
     */
    static JsonRpcId readableId(byte[] buffer, int length) {
        JsonRpcId found = JsonRpcId.NONE;
        int seen = 0;
        try (JsonParser parser = LENIENT.createParser(buffer, 0, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return JsonRpcId.NONE;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean id = "id".equals(parser.currentName());
                parser.nextToken();
                if (id) {
                    seen++;
                    found = JsonRpcId.read(parser, buffer);
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            // read as far as it goes: an id before the fault still names the request
        }
        return seen == 1 ? found : JsonRpcId.NONE;
    }

    /** The element the parser is at: an object read for its routing members, anything else skipped. */
    private static Message element(JsonParser parser, byte[] buffer) throws IOException {
        int start = (int) parser.currentTokenLocation().getByteOffset();
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return new Message(false, start, end(parser), false, null, null, false, false, null, null, null);
        }
        boolean hasMethod = false;
        boolean hasResult = false;
        boolean hasError = false;
        String method = null;
        JsonRpcId id = null;
        String[] params = new String[2];
        JsonRpcId[] requestId = new JsonRpcId[1];
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "method" -> {
                    hasMethod = true;
                    method = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    parser.skipChildren();
                }
                case "id" -> id = JsonRpcId.read(parser, buffer);
                case "result" -> {
                    hasResult = true;
                    parser.skipChildren();
                }
                case "error" -> {
                    hasError = true;
                    parser.skipChildren();
                }
                case "params" -> params(parser, buffer, params, requestId);
                default -> parser.skipChildren();
            }
        }
        return new Message(true, start, end(parser), hasMethod, method, id, hasResult, hasError, params[0], params[1],
                requestId[0]);
    }

    /** {@code params.name} and {@code params.uri} (strings), and {@code params.requestId}, of params at the parser. */
    private static void params(JsonParser parser, byte[] buffer, String[] names, JsonRpcId[] requestId)
            throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "name", "uri" -> {
                    names["name".equals(name) ? 0 : 1] = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    parser.skipChildren();
                }
                case "requestId" -> requestId[0] = JsonRpcId.read(parser, buffer);
                default -> parser.skipChildren();
            }
        }
    }

    /** Where the value the parser is at (or has just closed) ends, exclusive; the value is consumed. */
    static int end(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            parser.skipChildren();
        }
        if (parser.currentToken() == JsonToken.END_OBJECT || parser.currentToken() == JsonToken.END_ARRAY) {
            return (int) parser.currentTokenLocation().getByteOffset() + 1;
        }
        if (token == JsonToken.VALUE_STRING) {
            parser.finishToken(); // a string is read lazily: its end is known once it is read
        }
        return (int) parser.currentLocation().getByteOffset();
    }
}
