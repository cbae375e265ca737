package dev.fleet.mcp.jsonrpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.fleet.domain.Failures;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Fault;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Parts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The one reader of JSON-RPC lines, for stdio, HTTP and the relay (the contract, §12: each line parsed
 * once): one streaming pass, never a tree, into {@link JsonRpcMessage}s that say where each lies in the
 * line, so a message that passes unchanged is passed as the bytes it came in and an amendment is spliced
 * into them.
 *
 * <p>Only the limit its transport puts on a line bounds a message (§12.1): strings and keys as long as a
 * line may be; numbers too for the relay's reader, which passes bytes unchanged, while the plain servers'
 * reader ({@link #plain}) keeps Jackson's default number length, as the tree they read before did (a
 * number the SDK would refuse never reaches it, nor is echoed as an id); nesting deeper than
 * {@value #MAX_DEPTH} levels is refused.
 */
public final class JsonRpcReader {

    public static final int MAX_DEPTH = 1000;
    /**
     * The JSON tokens (each name, value, start and end of an object or array) the plain servers read in one
     * message, at most: fifty times what any message of MCP to fleet holds, where the 1 MiB of an HTTP body (or
     * the 16 MiB of a stdio line) could hold hundreds of thousands of empty objects, which the SDK would build
     * into trees of tens of megabytes, some at once on HTTP, until the heap ran out (the HTTP audit's find).
     */
    public static final int MAX_TOKENS = 10_000;
    /**
     * Messages in one batch, at most: as many as a relay lets wait. A line of 16 MiB holds some eight
     * million ({@code [1,1,…]}), whose records alone would take half a GiB of heap.
     */
    public static final int MAX_BATCH = 4096;
    /** The {@code _meta} key that carries a 2026-07-28 request's protocol version (§13). */
    public static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

    /** What an object that holds a key twice makes of its line. */
    public enum DuplicateKeys {
        /**
         * The line is {@link Fault#DUPLICATE_KEY}, wherever the object lies: a client's line to a relay, whose
         * child might read another {@code name} than fleet did.
         */
        REFUSED,
        /**
         * The last one counts, as JavaScript's, Python's and Jackson's readers have it, but a message holding
         * {@code id}, {@code method}, {@code result} or {@code error} twice is none ({@link Fault#ROUTED_KEY_TWICE}):
         * a child's line, passed on as it came, where a client reading the first could meet another id than
         * the one fleet routed by.
         */
        ONCE_WHERE_ROUTED,
        /** The last one counts: the SDK's own reading, which the plain servers follow. */
        LAST_COUNTS
    }

    private final JsonFactory factory;
    private final JsonFactory lenient;
    private final boolean routedOnce;

    /**
     * @param maxLineBytes the transport's line (or body) limit, which bounds every value in it
     * @param duplicates what a key given twice in an object makes of the line
     */
    public JsonRpcReader(int maxLineBytes, DuplicateKeys duplicates) {
        this(maxLineBytes, maxLineBytes, StreamReadConstraints.DEFAULT_MAX_TOKEN_COUNT, duplicates);
    }

    private JsonRpcReader(int maxLineBytes, int maxNumberLength, long maxTokens, DuplicateKeys duplicates) {
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxNumberLength(maxNumberLength)
                .maxStringLength(maxLineBytes)
                .maxNameLength(maxLineBytes)
                .maxNestingDepth(MAX_DEPTH)
                .maxTokenCount(maxTokens)
                .build();
        this.lenient = JsonFactory.builder().streamReadConstraints(limits).build();
        this.factory = duplicates == DuplicateKeys.REFUSED
                ? JsonFactory.builder().streamReadConstraints(limits).enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                        .build()
                : lenient;
        this.routedOnce = duplicates == DuplicateKeys.ONCE_WHERE_ROUTED;
    }

    /**
     * The reader of the plain servers (stdio and HTTP), which hand what they pass on to the SDK: the last of
     * a duplicate key counts, as in the SDK's reading, and a number longer than Jackson's default
     * ({@value StreamReadConstraints#DEFAULT_MAX_NUM_LEN} digits) makes the line {@link Fault#NOT_JSON}, and one of
     * more than {@value #MAX_TOKENS} tokens {@link Fault#TOO_MANY_TOKENS}. The relay's reader has no token bound:
     * what it passes on it never builds into a tree.
     */
    public static JsonRpcReader plain(int maxLineBytes) {
        return new JsonRpcReader(maxLineBytes, StreamReadConstraints.DEFAULT_MAX_NUM_LEN, MAX_TOKENS,
                DuplicateKeys.LAST_COUNTS);
    }

    /** The parser factory this reader reads with, for a part read again (a span, a tree of params). */
    public JsonFactory factory() {
        return factory;
    }

    /** Reads the line in {@code buffer[0, length)}. */
    public JsonRpcLine read(byte[] buffer, int length) {
        try (JsonParser parser = factory.createParser(buffer, 0, length)) {
            JsonToken first = parser.nextToken();
            JsonRpcLine line;
            if (first == null) {
                return JsonRpcLine.BLANK;
            } else if (first == JsonToken.START_OBJECT) {
                line = new JsonRpcLine(List.of(MessageReader.object(parser, buffer, routedOnce)), false, -1);
            } else if (first == JsonToken.START_ARRAY) {
                List<JsonRpcMessage> messages = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    if (messages.size() == MAX_BATCH) {
                        return whole(Fault.BATCH_TOO_LARGE, "a batch of more than " + MAX_BATCH + " messages",
                                JsonRpcId.NONE, length);
                    }
                    messages.add(MessageReader.element(parser, buffer, routedOnce));
                }
                line = new JsonRpcLine(messages, true, (int) parser.currentTokenLocation().getByteOffset());
            } else {
                String type = MessageReader.typeOf(first);
                parser.skipChildren();
                line = whole(Fault.LINE_NOT_AN_OBJECT, type, JsonRpcId.NONE, length);
            }
            JsonToken trailing = parser.nextToken();
            return trailing == null ? line : unreadable(Fault.NOT_JSON, "Trailing token (of type " + trailing
                    + ") found after the value", buffer, length);
        } catch (StreamConstraintsException beyond) {
            String why = String.valueOf(beyond.getOriginalMessage());
            if (why.contains("nesting depth")) {
                return unreadable(Fault.TOO_DEEP, "nested deeper than " + MAX_DEPTH + " levels", buffer, length);
            }
            return why.contains("Token count")
                    ? unreadable(Fault.TOO_MANY_TOKENS, "more than " + MAX_TOKENS + " JSON tokens", buffer, length)
                    : unreadable(Fault.NOT_JSON, Failures.withoutCodeNames(why), buffer, length); // a number too long
        } catch (JsonParseException e) {
            String why = String.valueOf(e.getOriginalMessage());
            return unreadable(why.startsWith("Duplicate field") ? Fault.DUPLICATE_KEY : Fault.NOT_JSON,
                    Failures.withoutCodeNames(why), buffer, length);
        } catch (IOException e) {
            String why = e.getMessage() == null ? "not JSON" : Failures.withoutCodeNames(Failures.oneLine(e));
            return unreadable(Fault.NOT_JSON, why, buffer, length);
        }
    }

    /** Where the value the parser is at (or has just closed) ends, exclusive; the value is consumed. */
    public static int end(JsonParser parser) throws IOException {
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

    private JsonRpcLine unreadable(Fault fault, String detail, byte[] buffer, int length) {
        return whole(fault, detail, readableId(buffer, length), length);
    }

    private static JsonRpcLine whole(Fault fault, String detail, JsonRpcId id, int length) {
        Parts parts = new Parts(0, length, false, false, false, null);
        return new JsonRpcLine(List.of(new Invalid(fault, detail, id, null, parts)), false, -1);
    }

    /**
     * The id of a line that could not be read as one message, when it can still be read and is no
     * response's: the line's object has exactly one {@code id} at its top level, a string or a number,
     * before anything that stops reading, and no {@code result} nor {@code error} without a {@code method}
     * before it (a refused request is answered with its own id, so the client never waits on it, even one
     * whose {@code method} comes after the fault; a response is never answered under its id, which names a
     * request of the other side's that a client's own request may share).
     */
    private JsonRpcId readableId(byte[] buffer, int length) {
        return topLevel(buffer, 0, length).unlessResponse();
    }

    /**
     * The ids of the requests of a batch line that could not be read as messages (a key given twice,
     * nesting too deep, not JSON), where they can still be read: of each element that is an object with
     * a {@code method}, its one {@code id} at its top level when MCP allows it, in order. Each element is
     * read on its own ({@link BatchElements}), so one that stops the reading hides no other's id. Empty for
     * a line that is no batch, and for one of more than {@value #MAX_BATCH} elements (answered once). A
     * refused batch is answered request by request (the contract, §12.1).
     */
    public List<JsonRpcId> readableRequestIds(byte[] buffer, int length) {
        List<int[]> elements = BatchElements.of(buffer, length, MAX_BATCH + 1);
        if (elements.size() > MAX_BATCH) {
            return List.of();
        }
        return elements.stream().map(element -> topLevel(buffer, element[0], element[1] - element[0]).requestId())
                .filter(JsonRpcId::legal).toList();
    }

    /** What the object in {@code buffer[offset, offset + length)} says at its top level, read as far as it reads. */
    private TopLevelId topLevel(byte[] buffer, int offset, int length) {
        TopLevelId id = new TopLevelId();
        try (JsonParser parser = lenient.createParser(buffer, offset, length)) {
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                id.read(parser, buffer, offset);
            }
        } catch (IOException e) {
            // read as far as it goes: an id before the fault still names the request
        }
        return id;
    }

    /** The one {@code id} at an object's top level, and whether it has a {@code method}: read as far as the object reads. */
    private static final class TopLevelId {
        private JsonRpcId found = JsonRpcId.NONE;
        private int seen;
        private boolean method;
        private boolean answers;

        /**
         * Reads the object the parser is at (its opening brace) to its end, or up to where reading fails; the
         * parser reads {@code buffer} from {@code base} on.
         */
        TopLevelId read(JsonParser parser, byte[] buffer, int base) throws IOException {
            try {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    note(name);
                    parser.nextToken();
                    if ("id".equals(name)) {
                        seen++;
                        found = JsonRpcId.read(parser, buffer, base);
                    } else {
                        parser.skipChildren();
                    }
                }
            } catch (IOException e) {
                // A scalar is read with its name: a result whose value stops the reading is still a response
                note(parser.currentName());
                throw e;
            }
            return this;
        }

        private void note(String name) {
            method |= "method".equals(name);
            answers |= "result".equals(name) || "error".equals(name);
        }

        /** The id, when given exactly once: an id given twice names nothing. */
        JsonRpcId id() {
            return seen == 1 ? found : JsonRpcId.NONE;
        }

        /** The id of a request (an object with a method): JSON-RPC answers no other. */
        JsonRpcId requestId() {
            return method ? id() : JsonRpcId.NONE;
        }

        /** The id, unless what was read is a response's (a result or an error, and no method). */
        JsonRpcId unlessResponse() {
            return answers && !method ? JsonRpcId.NONE : id();
        }
    }
}
