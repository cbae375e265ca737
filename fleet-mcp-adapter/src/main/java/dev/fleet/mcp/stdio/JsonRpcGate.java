package dev.fleet.mcp.stdio;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.fleet.domain.Failures;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.jsonrpc.JsonRpcEnvelope;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcLine;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Fault;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.modern.ModernEra;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, line by line, what of a stdio client's input reaches the SDK's session (the contract: bad
 * client input never ends a server), and reads each line once ({@link JsonRpcReader}): the message the
 * session gets is made from its id, its method and a tree of just its params' bytes. In SDK 2.1.0 (the
 * gate's first; 2.2.0 is pinned now) a session answers a message it cannot read with a stack trace,
 * or not at all, and a request that arrives before the {@code notifications/initialized} notification
 * waits for the session's exchange with no timeout (no reply, ever). So only messages the SDK is
 * known to handle are passed on; every other line is answered here (or, for what JSON-RPC never
 * answers, dropped), with one log line and no stack trace:
 *
 * <ul>
 *   <li>not UTF-8, not JSON (NUL bytes, trailing garbage): {@value #PARSE_ERROR}, under its id if readable;
 *   <li>JSON but not one JSON-RPC message (a batch, null, a scalar, an object that is neither request,
 *       notification nor response, {@code jsonrpc} other than "2.0", a method or id of the wrong type):
 *       {@value #INVALID_REQUEST}, with the request's id (each of a batch's) when usable, else null;
 *   <li>a request before the session is initialized ({@code initialize}, then
 *       {@code notifications/initialized}): {@value #INVALID_REQUEST} with the request's id, as
 *       later SDK versions answer; {@code ping} is answered with an empty result at any time;
 *   <li>{@code params} that is not an object, or {@code initialize}/{@code tools/call} params the SDK cannot read:
 *       {@value #INVALID_PARAMS} (the SDK would answer -32603 with a Jackson message and a stack trace);
 *   <li>a line longer than the reader's limit: {@value #INVALID_REQUEST}, id null ({@link BoundedLines}).
 * </ul>
 *
 * <p>Notifications other than {@code notifications/initialized} are dropped: this server acts on none, and one
 * ({@code notifications/roots/list_changed}) makes the SDK ask the client for its roots, a request whose failure
 * ends its inbound stream. Well-formed responses are passed on (the server sends no requests: the SDK logs them).
 *
 * <p>Not thread-safe: the one stdin thread ({@link StdioTransport}) calls it. Replies go to {@link LineOutput},
 * whole lines under its lock, never interleaved with the SDK's answers. Before a request is passed on, a place
 * for its answer is reserved there, which waits while the client leaves {@link LineOutput#MAX_UNWRITTEN_ANSWERS}
 * answers unread: the bound on queued answers.
 */
final class JsonRpcGate {

    static final int PARSE_ERROR = McpSchema.ErrorCodes.PARSE_ERROR;
    static final int INVALID_REQUEST = McpSchema.ErrorCodes.INVALID_REQUEST;
    static final int INVALID_PARAMS = McpSchema.ErrorCodes.INVALID_PARAMS;

    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcGate.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Duplicate keys as the SDK reads them (the last counts); numbers within Jackson's default length. */
    private final JsonRpcReader reader = JsonRpcReader.plain(BoundedLines.MAX_LINE_BYTES);
    /** Writes the replies the gate makes itself. */
    private final ObjectMapper json = new ObjectMapper();
    private final McpJsonMapper sdkMapper;
    private final SessionMessages messages;
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
        this.messages = new SessionMessages(sdkMapper);
        this.out = Objects.requireNonNull(out, "out");
        this.modern = modern;
    }

    /**
     * One line of stdin, without its line terminator.
     *
     * @return the message to hand to the SDK's session, made from this one reading of the line, or what
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
        JsonRpcLine line = text.isBlank() ? null : reader.read(buffer, length);
        if (line == null || line.blank()) {
            return Admission.Handled.UNANSWERED; // a stray newline from a client is no message at all
        }
        if (line.batch() || line.message() instanceof Invalid large && large.fault() == Fault.BATCH_TOO_LARGE) {
            // each request of a batch under its id (an array, as JSON-RPC answers one): none waits for ever
            List<JsonRpcId> ids = line.batch() ? JsonRpcLine.requestIds(line.messages()) : List.of();
            return reply(ids.isEmpty() ? List.of(JsonRpcId.NONE) : ids, !ids.isEmpty(), INVALID_REQUEST, "Invalid "
                    + "Request: batches are not supported; send one JSON-RPC message (an object) per line", length);
        }
        JsonRpcMessage message = line.message();
        if (message instanceof Invalid many && many.fault() == Fault.TOO_MANY_TOKENS) {
            return reply(answerable(many.id()), INVALID_REQUEST, "Invalid Request: " + many.detail() + " in one "
                    + "message", length);
        }
        if (message instanceof Invalid invalid && invalid.wholeLine()) {
            return invalid.fault() == Fault.LINE_NOT_AN_OBJECT
                    ? reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is an object, not "
                            + invalid.detail(), length)
                    : reply(answerable(invalid.id()), PARSE_ERROR, "Parse error: "
                            + RequestParams.clientText(invalid.detail()), length);
        }
        JsonNode params;
        try {
            params = messages.params(buffer, message.parts().params()); // what the session will read, if anything
        } catch (JacksonException e) { // beyond Jackson's bounds: under the request's id, as over HTTP
            return reply(answerable(message instanceof Request ? message.id() : null), PARSE_ERROR, "Parse error: "
                    + RequestParams.clientText(Failures.withoutCodeNames(String.valueOf(e.getOriginalMessage()))), length);
        }
        return admitMessage(message, params, buffer, length);
    }

    /** A line longer than the reader holds: discarded unread, and answered once. */
    void tooLong(int limit) {
        lineNumber++;
        reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: line longer than " + limit + " bytes, discarded "
                + "unread", limit);
    }

    private Admission admitMessage(JsonRpcMessage message, JsonNode params, byte[] line, int length) {
        if (message instanceof Response || message instanceof Invalid invalid
                && invalid.fault() == Fault.MALFORMED_RESPONSE) {
            return admitResponse(message, line, length);
        }
        if (message instanceof Invalid invalid && invalid.fault() == Fault.NEITHER) {
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: neither a request, a notification nor "
                    + "a response (no method, result or error)", length);
        }
        // the one id check (JsonRpcId), narrowed to the ids the SDK's session can take
        JsonRpcId id = message.id();
        JsonRpcId replyId = answerable(id);
        if (!message.parts().versioned()) {
            return reply(replyId, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"", length);
        }
        String method = message.method();
        if (method == null || method.isEmpty()) {
            return reply(replyId, INVALID_REQUEST, "Invalid Request: method must be a non-empty string", length);
        }
        if (id != null && !id.fitsTheSdk()) {
            return reply(JsonRpcId.NONE, INVALID_REQUEST, "Invalid Request: id must be a string or an integer",
                    length);
        }
        Params read = message.parts().params();
        boolean paramsUsable = read == null || read.usable();
        if (id == null) {
            return admitNotification(method, read, params, length);
        }
        if (message.answersToo()) { // no request (§12.1), as the relay and HTTP judge it
            return reply(id, INVALID_REQUEST, "Invalid Request: " + JsonRpcMessage.ANSWERS_TOO, length);
        }
        if (!paramsUsable) {
            return reply(id, INVALID_PARAMS, "Invalid params: params must be an object", length);
        }
        if (modern != null && ModernEra.claims(method, read)) {
            if (!ModernStdio.LISTEN.equals(method)) {
                out.reserveAnswer(id); // as for a 2025 request below; a listen is answered only at its end
            } else {
                JsonRpcError refused = modern.listenRefused(id);
                if (refused != null) {
                    return reply(id, refused.code(), refused.message(), length);
                }
            }
            modern.request(id, method, params);
            return Admission.Handled.ANSWERED;
        }
        if (!initialized && McpSchema.METHOD_PING.equals(method)) {
            LOG.debug("stdin line {}: '{}' answered before initialization ({} bytes)", lineNumber, method, length);
            write(JsonRpcEnvelope.result(id, NODES.objectNode()));
            return Admission.Handled.ANSWERED;
        }
        if (!initialized && !McpSchema.METHOD_INITIALIZE.equals(method)) {
            return reply(id, INVALID_REQUEST, "Invalid Request: session not initialized; send 'initialize', then "
                    + "'notifications/initialized', before '" + RequestParams.clientText(method) + "'", length);
        }
        McpSchema.JSONRPCRequest request;
        try {
            request = messages.request(id, method, params);
        } catch (RuntimeException e) {
            return reply(id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC request this server can read", length);
        }
        String unreadable = RequestParams.problem(sdkMapper, method, request.params());
        if (unreadable != null) {
            return reply(id, INVALID_PARAMS, "Invalid params for " + RequestParams.clientText(method) + ": "
                    + unreadable, length);
        }
        if (McpSchema.METHOD_INITIALIZE.equals(method)) {
            initializeSent = true;
        }
        // The SDK answers every request it is given with one line: hold a place for that answer
        // first, waiting (and so not reading stdin) while the client leaves too many unread.
        out.reserveAnswer(id);
        return new Admission.Passed(request);
    }

    /** @param read the params as the reader found them (null when absent), {@code params} their tree */
    private Admission admitNotification(String method, Params read, JsonNode params, int length) {
        boolean paramsUsable = read == null || read.usable();
        if (modern != null && "notifications/cancelled".equals(method)) {
            // ends a modern listen, its id compared by value as the reader read it; the 2025 session acts on none
            modern.cancelled(read == null ? null : read.requestId());
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
        McpSchema.JSONRPCNotification notification = paramsUsable ? messages.notification(method, params) : null;
        if (notification == null) {
            LOG.warn("stdin line {}: malformed '{}' ignored", lineNumber, method);
            return Admission.Handled.UNANSWERED;
        }
        initialized = true;
        return new Admission.Passed(notification);
    }

    /** A response: passed once initialized (this server sends no requests, so the SDK only logs it). */
    private Admission admitResponse(JsonRpcMessage message, byte[] line, int length) {
        McpSchema.JSONRPCResponse response = messages.response(message, line);
        if (response == null || !initialized) {
            LOG.warn("stdin line {}: {} response ignored ({} bytes)", lineNumber,
                    response != null ? "unsolicited" : "malformed", length);
            return Admission.Handled.UNANSWERED;
        }
        return new Admission.Passed(response);
    }

    private Admission reply(JsonRpcId id, int code, String message, int length) {
        return reply(List.of(id), false, code, message, length);
    }

    /** One error under each of {@code ids}: in an array when they are a batch's (a batch of one included). */
    private Admission reply(List<JsonRpcId> ids, boolean batch, int code, String message, int length) {
        LOG.warn("stdin line {} answered with error {} ({} bytes): {}", lineNumber, code, length, message);
        ArrayNode each = NODES.arrayNode();
        ids.forEach(id -> each.add(new JsonRpcError(code, message).node(id)));
        write(batch ? each : each.get(0));
        return Admission.Handled.ANSWERED;
    }

    /** The id a refusal names: the request's where the SDK's session could take it, else none. */
    private static JsonRpcId answerable(JsonRpcId id) {
        return id != null && id.fitsTheSdk() ? id : JsonRpcId.NONE;
    }

    private void write(JsonNode response) {
        try {
            out.writeLine(json.writeValueAsBytes(response));
        } catch (JacksonException e) {
            LOG.warn("could not encode a reply: {}", e.toString()); // never, for these plain trees
        }
    }
}
