package dev.fleet.mcp.relay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a JSON value lies in a line ({@code end} exclusive), and, to a given depth, where its members
 * or elements lie: enough to splice an amendment into the child's bytes ({@link Splice}) and leave
 * everything else as it wrote it. A string's value is kept ({@code text}); numbers are never read as
 * numbers, so none is ever rounded.
 */
record Span(JsonToken token, int start, int end, String text, Map<String, Span> members, List<Span> elements) {

    boolean isObject() {
        return token == JsonToken.START_OBJECT;
    }

    boolean isArray() {
        return token == JsonToken.START_ARRAY;
    }

    /** The member {@code name} of an object read deep enough, or null. */
    Span member(String name) {
        return members == null ? null : members.get(name);
    }

    /** Where a container's closing bracket is. */
    int close() {
        return end - 1;
    }

    /** The one value in {@code buffer[start, end)}, read {@code depth} levels deep (the line is known good). */
    static Span read(byte[] buffer, int start, int end, int depth) {
        try (JsonParser parser = ChildLines.READER.factory().createParser(buffer, start, end - start)) {
            parser.nextToken();
            return value(parser, start, depth);
        } catch (IOException e) {
            throw new IllegalStateException("a line read once could not be read again", e);
        }
    }

    private static Span value(JsonParser parser, int base, int depth) throws IOException {
        JsonToken token = parser.currentToken();
        int start = base + (int) parser.currentTokenLocation().getByteOffset();
        if (depth > 0 && token == JsonToken.START_OBJECT) {
            Map<String, Span> members = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                members.put(name, value(parser, base, depth - 1));
            }
            return new Span(token, start, base + JsonRpcReader.end(parser), null, members, null);
        }
        if (depth > 0 && token == JsonToken.START_ARRAY) {
            List<Span> elements = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                elements.add(value(parser, base, depth - 1));
            }
            return new Span(token, start, base + JsonRpcReader.end(parser), null, null, elements);
        }
        String text = token == JsonToken.VALUE_STRING ? parser.getText() : null;
        return new Span(token, start, base + JsonRpcReader.end(parser), text, null, null);
    }
}
