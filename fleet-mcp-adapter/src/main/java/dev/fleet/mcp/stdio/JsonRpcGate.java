package dev.fleet.mcp.stdio;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.modern.ModernEra;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, line by line, what of a stdio client's input reaches the SDK's session (the contract: bad
 * client input never ends a server), and parses each line, once: the message the session gets is
 * made from that one tree ({@code convertValue}), never from the line's text again. In SDK 2.1.0 a
 * session answers a message it cannot read with a stack trace, or not at all, and a request that
 * arrives before the {@code notifications/initialized} notification waits for the session's
 * exchange with no timeout (no reply, ever). So only messages the SDK is known to handle are passed
 * on; every other line is answered here (or, for what JSON-RPC never answers, dropped), with one log
 * line and no stack trace:
 *
 * <ul>
 *   <li>not UTF-8, not JSON (NUL bytes and trailing garbage included): {@value #PARSE_ERROR} parse
 *       error, id null;
 *   <li>JSON but not one JSON-RPC message (an array, a batch, null, a scalar, an object that is
 *       neither request, notification nor response, {@code jsonrpc} other than "2.0", a method that
 *       is not a string, an id that is not a string or an integer): {@value #INVALID_REQUEST}
 *       invalid request, with the request's id when it has a usable one, else null;
 *   <li>a request before the session is initialized ({@code initialize}, then
 *       {@code notifications/initialized}): {@value #INVALID_REQUEST} with the request's id, as
 *       later SDK versions answer; {@code ping} is answered with an empty result at any time;
 *   <li>{@code params} that is not an object, or {@code initialize}/{@code tools/call} params the
 *       SDK cannot read: {@value #INVALID_PARAMS} invalid params (the SDK would answer -32603 with
 *       a Jackson message and log a stack trace);
 *   <li>a line longer than the reader's limit: {@value #INVALID_REQUEST}, id null (see
 *       {@link BoundedLines}).
 * </ul>
 *
 * <p>Notifications other than {@code notifications/initialized} are dropped: this server acts on
 * none, and one of them ({@code notifications/roots/list_changed}) makes the SDK ask the client
 * for its roots, a request whose failure ends the SDK's inbound stream. Responses from the client
 * are passed on when well formed (this server sends no requests, so the SDK only logs them).
 *
 * <p>Not thread-safe: the one stdin thread ({@link StdioTransport}) calls it. Replies go to
 * {@link LineOutput}, whole lines under its lock, so they never interleave with the SDK's answers.
 * Before a request is passed on, a place for its answer is reserved there, which waits while the
 * client leaves {@link LineOutput#MAX_UNWRITTEN_ANSWERS} answers unread: the bound on queued answers.
 */
final class JsonRpcGate {

    static final int PARSE_ERROR = McpSchema.ErrorCodes.PARSE_ERROR;
    static final int INVALID_REQUEST = McpSchema.ErrorCodes.INVALID_REQUEST;
    static final int INVALID_PARAMS = McpSchema.ErrorCodes.INVALID_PARAMS;

    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcGate.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Strict where the SDK is lenient: a second value after the message is not one message. */
    private final ObjectMapper json = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private final McpJsonMapper sdkMapper;
    private final LineOutput out;
    /** Where a request of the 2026-07-28 era goes ({@link ModernEra#claims}); null: this gate serves 2025 only. */
    private final ModernStdio modern;

    private long lineNumber;
    /** Strict: a line that is not valid UTF-8 is refused, not repaired. Reused, as the gate is single-threaded. */
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private boolean initializeSent;
    private boolean initialized;

    /**
     * @param sdkMapper the mapper the SDK's server uses, which makes the messages passed on from the
     *     tree as the SDK's own reader would from the text
     * @param out stdout, shared with the SDK's session
     */
    JsonRpcGate(McpJsonMapper sdkMapper, LineOutput out) {
        this(sdkMapper, out, null);
    }

    JsonRpcGate(McpJsonMapper sdkMapper, LineOutput out, ModernStdio modern) {
        this.sdkMapper = Objects.requireNonNull(sdkMapper, "sdkMapper");
        this.out = Objects.requireNonNull(out, "out");
        this.modern = modern;
    }

    /**
     * One line of stdin, without its line terminator.
     *
     * @return the message to hand to the SDK's session, made from this one parse of the line, or what
     *     was done with a line the session never sees
     */
    Admission admit(byte[] buffer, int length) {
        lineNumber++;
        String text;
        try {
            text = utf8.decode(ByteBuffer.wrap(buffer, 0, length)).toString();
        } catch (CharacterCodingException e) {
            return reply(JsonRpcId.NONE, PARSE_ERROR, "Parse error: the line is not valid UTF-8", length);
        }
        if (text.isBlank()) {
            return Admission.Handled.UNANSWERED; // a stray newline from a client is no message at all
        }
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (JacksonException e) {
            return reply(JsonRpcId.NONE, PARSE_ERROR,
                    "Parse error: " + RequestParams.clientText(e.getOriginalMessage()), length);
        }
        if (message.isArray()) {
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: batches are not supported; send one "
                    + "JSON-RPC message (an object) per line", length);
        }
        if (!message.isObject()) {
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is an object, not "
                    + message.getNodeType().name().toLowerCase(java.util.Locale.ROOT), length);
        }
        return admitObject((ObjectNode) message, length);
    }

    /** A line longer than the reader holds: discarded unread, and answered once. */
    void tooLong(int limit) {
        lineNumber++;
        reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: line longer than " + limit + " bytes, discarded "
                + "unread", limit);
    }

    private Admission admitObject(ObjectNode message, int length) {
        boolean hasMethod = message.has("method");
        boolean hasId = message.has("id");
        JsonNode id = message.get("id");
        // the one id check (JsonRpcId), narrowed to the ids the SDK's session can take
        JsonRpcId rpcId = JsonRpcId.of(id);
        boolean usableId = id != null && rpcId.fitsTheSdk();
        JsonRpcId replyId = hasMethod && usableId ? rpcId : JsonRpcId.NONE;
        if (!hasMethod) {
            if (message.has("result") || message.has("error")) {
                return admitResponse(message, length);
            }
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: neither a request, a notification nor "
                    + "a response (no method, result or error)", length);
        }
        if (!"2.0".equals(message.path("jsonrpc").textValue())) {
            return reply(replyId, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", length);
        }
        JsonNode methodNode = message.get("method");
        if (!methodNode.isTextual() || methodNode.textValue().isEmpty()) {
            return reply(replyId, INVALID_REQUEST, "Invalid Request: method must be a non-empty string", length);
        }
        String method = methodNode.textValue();
        if (hasId && !usableId) {
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: id must be a string or an integer",
                    length);
        }
        JsonNode params = message.get("params");
        boolean paramsUsable = params == null || params.isObject() || params.isNull();
        if (!hasId) {
            return admitNotification(message, method, paramsUsable, length);
        }
        if (!paramsUsable) {
            return reply(rpcId, INVALID_PARAMS, "Invalid params: params must be an object", length);
        }
        if (modern != null && ModernEra.claims(message)) {
            if (!ModernStdio.LISTEN.equals(method)) {
                out.reserveAnswer(); // as for a 2025 request below; a listen is answered only at its end
            }
            modern.request(id, method, params);
            return Admission.Handled.ANSWERED;
        }
        if (!initialized && McpSchema.METHOD_PING.equals(method)) {
            return result(id, method, length);
        }
        if (!initialized && !McpSchema.METHOD_INITIALIZE.equals(method)) {
            return reply(rpcId, INVALID_REQUEST, "Invalid Request: session not initialized; send 'initialize', then "
                    + "'notifications/initialized', before '" + RequestParams.clientText(method) + "'", length);
        }
        McpSchema.JSONRPCRequest request = sdkMessage(message, McpSchema.JSONRPCRequest.class);
        if (request == null) {
            return reply(rpcId, INVALID_REQUEST, "Invalid Request: not a JSON-RPC request this server can read", length);
        }
        String unreadable = RequestParams.problem(sdkMapper, request.method(), request.params());
        if (unreadable != null) {
            return reply(rpcId, INVALID_PARAMS, "Invalid params for " + RequestParams.clientText(method) + ": " + unreadable,
                    length);
        }
        if (McpSchema.METHOD_INITIALIZE.equals(method)) {
            initializeSent = true;
        }
        // The SDK answers every request it is given with one line: hold a place for that answer
        // first, waiting (and so not reading stdin) while the client leaves too many unread.
        out.reserveAnswer();
        return new Admission.Passed(request);
    }

    private Admission admitNotification(ObjectNode message, String method, boolean paramsUsable,
            int length) {
        if (modern != null && "notifications/cancelled".equals(method)) {
            modern.cancelled(message.get("params")); // ends a modern listen; the 2025 session acts on none
            return Admission.Handled.UNANSWERED;
        }
        if (!McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(method)) {
            LOG.debug("stdin line {}: notification '{}' ignored (this server acts on none)", lineNumber,
                    RequestParams.clientText(method));
            return Admission.Handled.UNANSWERED;
        }
        if (!initializeSent || initialized) {
            LOG.warn("stdin line {}: '{}' ignored: {}", lineNumber, method,
                    initialized ? "the session is already initialized" : "no 'initialize' request came before it");
            return Admission.Handled.UNANSWERED;
        }
        McpSchema.JSONRPCNotification notification =
                paramsUsable ? sdkMessage(message, McpSchema.JSONRPCNotification.class) : null;
        if (notification == null) {
            LOG.warn("stdin line {}: malformed '{}' ignored", lineNumber, method);
            return Admission.Handled.UNANSWERED;
        }
        initialized = true;
        return new Admission.Passed(notification);
    }

    private Admission admitResponse(ObjectNode message, int length) {
        McpSchema.JSONRPCResponse response = "2.0".equals(message.path("jsonrpc").textValue())
                && (message.has("result") != message.has("error"))
                ? sdkMessage(message, McpSchema.JSONRPCResponse.class) : null;
        if (response == null || !initialized) {
            LOG.warn("stdin line {}: {} response ignored ({} bytes)", lineNumber,
                    response != null ? "unsolicited" : "malformed", length);
            return Admission.Handled.UNANSWERED;
        }
        return new Admission.Passed(response);
    }

    /**
     * The SDK's message of {@code type} made from the tree, as its own reader makes it from a line's
     * text (text to plain JSON values, then {@code convertValue}), or null where the SDK cannot read it.
     */
    private <T extends McpSchema.JSONRPCMessage> T sdkMessage(ObjectNode message, Class<T> type) {
        try {
            return sdkMapper.convertValue(message, type);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Admission result(JsonNode id, String method, int length) {
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.set("id", id);
        response.set("result", NODES.objectNode());
        LOG.debug("stdin line {}: '{}' answered before initialization ({} bytes)", lineNumber, method, length);
        write(response);
        return Admission.Handled.ANSWERED;
    }

    private Admission reply(JsonRpcId id, int code, String message, int length) {
        LOG.warn("stdin line {} answered with error {} ({} bytes): {}", lineNumber, code, length, message);
        write(new JsonRpcError(code, message).node(id));
        return Admission.Handled.ANSWERED;
    }

    private void write(ObjectNode response) {
        try {
            out.writeLine(json.writeValueAsBytes(response));
        } catch (JacksonException e) {
            LOG.warn("could not encode a reply: {}", e.toString()); // never, for these plain trees
        }
    }
}
