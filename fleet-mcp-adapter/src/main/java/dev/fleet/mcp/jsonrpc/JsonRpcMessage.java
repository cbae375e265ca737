package dev.fleet.mcp.jsonrpc;

/**
 * One JSON-RPC message as {@link JsonRpcReader} read it, in one streaming pass and never as a tree:
 * what it is (request, notification, response, or why it is none of them), its {@code id} and
 * {@code method}, and where it lies in its line with the members routing reads ({@link Parts}). Each
 * transport is a policy over these four kinds; a message that passes unchanged is passed as the bytes
 * it came in, and a transport reads further (its params, as a tree) only where fleet must.
 */
public sealed interface JsonRpcMessage {

    /** Where the message lies and the members routing reads. */
    Parts parts();

    /** The {@code method} of a request or a notification; null for what has none (or none that is a string). */
    default String method() {
        return null;
    }

    /** The {@code id} of a request or a response, or the one a refusal of an invalid message names; else null. */
    default JsonRpcId id() {
        return null;
    }

    /**
     * Why a request that also holds {@code result} or {@code error} is refused (-32600, under its id) wherever it
     * arrives, stdio, HTTP or the relay: it is no request (§12.1), and a reader could take it for an answer.
     */
    String ANSWERS_TOO = "a request holds no result nor error";

    /** Whether this is a request that also holds {@code result} or {@code error}: {@link #ANSWERS_TOO}. */
    default boolean answersToo() {
        return this instanceof Request && parts().answers();
    }

    /**
     * Whether this means to be a request (a {@code method} and an {@code id}) under an id the MCP Java SDK cannot take
     * ({@link JsonRpcId#fitsTheSdk()}: {@code 1.5}, {@code 1e2}, one beyond a {@code long}, or one MCP does not allow).
     */
    default boolean idTheSdkCannotTake() {
        return method() != null && id() != null && !id().fitsTheSdk();
    }

    /** Where the message starts in its line. */
    default int start() {
        return parts().start();
    }

    /** Where the message ends in its line, exclusive. */
    default int end() {
        return parts().end();
    }

    /**
     * A request: a {@code method} that is a string (maybe empty) and an {@code id} MCP allows (a string
     * or a number). {@code parts().answers()} says it also holds {@code result} or {@code error}.
     */
    record Request(JsonRpcId id, String method, Parts parts) implements JsonRpcMessage {
    }

    /** A notification: a {@code method} that is a string, and no {@code id}. */
    record Notification(String method, Parts parts) implements JsonRpcMessage {
    }

    /**
     * A response: no {@code method}, an {@code id} (maybe one MCP does not allow, {@link JsonRpcId#NONE}),
     * and exactly one of {@code result} and {@code error} ({@code parts().hasError()} says which).
     */
    record Response(JsonRpcId id, Parts parts) implements JsonRpcMessage {
    }

    /**
     * What is not one of the three: why ({@code fault}, and {@code detail}: the parser's words, or the
     * JSON type a message is not), the {@code method} when it is a string, and the {@code id}: the
     * message's own where it can be read (of a line that cannot be read, the one {@code id} at its top
     * level), {@link JsonRpcId#NONE} where it names none MCP allows, null where it has none.
     */
    record Invalid(Fault fault, String detail, JsonRpcId id, String method, Parts parts) implements JsonRpcMessage {

        /** Whether the whole line is unreadable as messages (not one value, not objects): no element to route. */
        public boolean wholeLine() {
            return fault.wholeLine;
        }

        /**
         * Whether it meant to be a request (a {@code method} and an {@code id}), so that JSON-RPC answers it,
         * with {@link #id()}: an id MCP does not allow, or a method that is no string.
         */
        public boolean request() {
            return fault == Fault.ID_NOT_LEGAL || fault == Fault.METHOD_NOT_A_STRING && id != null;
        }
    }

    /** Why a message is invalid. */
    enum Fault {
        /** Not one JSON value (or not UTF-8 where the parser sees it). */
        NOT_JSON(true),
        /** An object holds the same key twice (refused by a strict reader only). */
        DUPLICATE_KEY(true),
        /** Nested deeper than {@link JsonRpcReader#MAX_DEPTH} levels. */
        TOO_DEEP(true),
        /**
         * More JSON tokens than the plain servers read in one message ({@link JsonRpcReader#MAX_TOKENS}): a
         * body of a million empty objects would become a tree of tens of megabytes in the SDK.
         */
        TOO_MANY_TOKENS(true),
        /** A line (not a batch) that is a JSON value but not an object: {@code detail} names its type. */
        LINE_NOT_AN_OBJECT(true),
        /** A batch of more than {@link JsonRpcReader#MAX_BATCH} messages, read no further. */
        BATCH_TOO_LARGE(true),
        /** An element of a batch that is not an object: {@code detail} names its type. */
        NOT_AN_OBJECT(false),
        /** A {@code method} and an {@code id} that is not a string nor a number (id {@link JsonRpcId#NONE}). */
        ID_NOT_LEGAL(false),
        /** A {@code method} that is not a string (id: the request's, or null without one). */
        METHOD_NOT_A_STRING(false),
        /** No {@code method}, {@code result} nor {@code error}. */
        NEITHER(false),
        /** No {@code method}, and {@code result} and {@code error} both, or either without an {@code id}. */
        MALFORMED_RESPONSE(false),
        /**
         * {@code id}, {@code method}, {@code result} or {@code error} given twice, where the reader refuses it
         * ({@link JsonRpcReader.DuplicateKeys#ONCE_WHERE_ROUTED}).
         */
        ROUTED_KEY_TWICE(false);

        private final boolean wholeLine;

        Fault(boolean wholeLine) {
            this.wholeLine = wholeLine;
        }
    }

    /**
     * Where a message lies in its line ({@code end} exclusive), and the members routing reads:
     * {@code jsonrpc} (whether it is "2.0"), whether {@code result} and {@code error} are present, and
     * {@code params} ({@link Params}, null when absent).
     */
    record Parts(int start, int end, boolean versioned, boolean hasResult, boolean hasError, Params params) {

        /** Whether the message holds {@code result} or {@code error}. */
        public boolean answers() {
            return hasResult || hasError;
        }
    }

    /**
     * A message's {@code params}: where the value lies (a transport that must read it parses just
     * these bytes), what it is, and the few members routing reads: {@code name} and {@code uri} (when
     * strings), {@code requestId}, and the protocol version {@code _meta} claims (§13), when a string.
     */
    record Params(Kind kind, int start, int end, String name, String uri, JsonRpcId requestId,
            String protocolVersion) {

        /** What a {@code params} value is. */
        public enum Kind { OBJECT, NULL, OTHER }

        /** Whether the params are an object or null, the two MCP allows. */
        public boolean usable() {
            return kind != Kind.OTHER;
        }
    }
}
