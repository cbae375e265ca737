package dev.fleet.mcp.stdio;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.mcp.RequestParams;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, line by line, what of a stdio client's input reaches the SDK (the contract: bad client input
 * never ends a server). The SDK's stdio transport stops reading for good at the first line
 * {@link McpSchema#deserializeJsonRpcMessage} rejects, and in SDK 2.1.0 a request that arrives
 * before the {@code notifications/initialized} notification waits for the session's exchange with
 * no timeout (no reply, ever). So every line is checked here first, and only lines the SDK is known
 * to handle are passed on; every other line is answered here (or, for what JSON-RPC never answers,
 * dropped), with one log line and no stack trace:
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
 *       {@link StdinLines}).
 * </ul>
 *
 * <p>Notifications other than {@code notifications/initialized} are dropped: this server acts on
 * none, and one of them ({@code notifications/roots/list_changed}) makes the SDK ask the client
 * for its roots, a request whose failure ends the SDK's inbound stream. Responses from the client
 * are passed on when well formed (this server sends no requests, so the SDK only logs them).
 *
 * <p>Not thread-safe: the SDK's one stdin thread calls it. Replies go to {@link ProtocolOutput},
 * whole lines under its lock, so they never interleave with the SDK's responses. Before a request
 * is passed on, a place for its answer is reserved there, which waits while the client leaves
 * {@link ProtocolOutput#MAX_UNWRITTEN_ANSWERS} answers unread: the bound on queued answers.
 */
final class JsonRpcGate implements StdinLines.Gate {

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
    private final ProtocolOutput out;

    private long lineNumber;
    /** Strict: a line that is not valid UTF-8 is refused, not repaired. Reused, as the gate is single-threaded. */
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    /** The line being admitted, decoded once: what the SDK's reader is given to parse. */
    private String line;
    private boolean initializeSent;
    private boolean initialized;

    /**
     * @param sdkMapper the mapper the SDK's transport and server use, so a line passed here is one
     *     the SDK reads the same way
     * @param out stdout, shared with the SDK
     */
    JsonRpcGate(McpJsonMapper sdkMapper, ProtocolOutput out) {
        this.sdkMapper = Objects.requireNonNull(sdkMapper, "sdkMapper");
        this.out = Objects.requireNonNull(out, "out");
    }

    /**
     * One line of stdin, without its line terminator.
     *
     * @return the bytes to hand to the SDK (one line, ending in a newline), or null when the line
     *     was answered or dropped here
     */
    @Override
    public byte[] admit(byte[] buffer, int length) {
        lineNumber++;
        String text;
        try {
            text = utf8.decode(ByteBuffer.wrap(buffer, 0, length)).toString();
        } catch (CharacterCodingException e) {
            return reply(NullNode.instance, PARSE_ERROR, "Parse error: the line is not valid UTF-8", length);
        }
        if (text.isBlank()) {
            return null; // a stray newline from a client is no message at all
        }
        line = text;
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (JacksonException e) {
            return reply(NullNode.instance, PARSE_ERROR,
                    "Parse error: " + RequestParams.clientText(e.getOriginalMessage()), length);
        }
        if (message.isArray()) {
            return reply(NullNode.instance, INVALID_REQUEST, "Invalid Request: batches are not supported; send one "
                    + "JSON-RPC message (an object) per line", length);
        }
        if (!message.isObject()) {
            return reply(NullNode.instance, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is an object, not "
                    + message.getNodeType().name().toLowerCase(java.util.Locale.ROOT), length);
        }
        return admitObject((ObjectNode) message, buffer, length);
    }

    /** A line longer than the reader holds: discarded unread, and answered once. */
    @Override
    public void tooLong(int limit) {
        lineNumber++;
        reply(NullNode.instance, INVALID_REQUEST, "Invalid Request: line longer than " + limit + " bytes, discarded "
                + "unread", limit);
    }

    private byte[] admitObject(ObjectNode message, byte[] buffer, int length) {
        boolean hasMethod = message.has("method");
        boolean hasId = message.has("id");
        JsonNode id = message.get("id");
        boolean usableId = id != null && (id.isTextual() || id.isInt() || id.isLong());
        JsonNode replyId = hasMethod && usableId ? id : NullNode.instance;
        if (!hasMethod) {
            if (message.has("result") || message.has("error")) {
                return admitResponse(message, buffer, length);
            }
            return reply(NullNode.instance, INVALID_REQUEST, "Invalid Request: neither a request, a notification nor "
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
            return reply(NullNode.instance, INVALID_REQUEST, "Invalid Request: id must be a string or an integer",
                    length);
        }
        JsonNode params = message.get("params");
        boolean paramsUsable = params == null || params.isObject() || params.isNull();
        if (!hasId) {
            return admitNotification(method, paramsUsable, buffer, length);
        }
        if (!paramsUsable) {
            return reply(id, INVALID_PARAMS, "Invalid params: params must be an object", length);
        }
        if (!initialized && McpSchema.METHOD_PING.equals(method)) {
            return result(id, method, length);
        }
        if (!initialized && !McpSchema.METHOD_INITIALIZE.equals(method)) {
            return reply(id, INVALID_REQUEST, "Invalid Request: session not initialized; send 'initialize', then "
                    + "'notifications/initialized', before '" + RequestParams.clientText(method) + "'", length);
        }
        McpSchema.JSONRPCMessage parsed = sdkParse();
        if (!(parsed instanceof McpSchema.JSONRPCRequest request)) {
            return reply(id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC request this server can read", length);
        }
        String unreadable = RequestParams.problem(sdkMapper, request.method(), request.params());
        if (unreadable != null) {
            return reply(id, INVALID_PARAMS, "Invalid params for " + RequestParams.clientText(method) + ": " + unreadable,
                    length);
        }
        if (McpSchema.METHOD_INITIALIZE.equals(method)) {
            initializeSent = true;
        }
        // The SDK answers every request it is given with one line: hold a place for that answer
        // first, waiting (and so not reading stdin) while the client leaves too many unread.
        out.reserveAnswer();
        return pass(buffer, length);
    }

    private byte[] admitNotification(String method, boolean paramsUsable, byte[] buffer, int length) {
        if (!McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(method)) {
            LOG.debug("stdin line {}: notification '{}' ignored (this server acts on none)", lineNumber,
                    RequestParams.clientText(method));
            return null;
        }
        if (!initializeSent || initialized) {
            LOG.warn("stdin line {}: '{}' ignored: {}", lineNumber, method,
                    initialized ? "the session is already initialized" : "no 'initialize' request came before it");
            return null;
        }
        if (!paramsUsable || !(sdkParse() instanceof McpSchema.JSONRPCNotification)) {
            LOG.warn("stdin line {}: malformed '{}' ignored", lineNumber, method);
            return null;
        }
        initialized = true;
        return pass(buffer, length);
    }

    private byte[] admitResponse(ObjectNode message, byte[] buffer, int length) {
        boolean wellFormed = "2.0".equals(message.path("jsonrpc").textValue())
                && (message.has("result") != message.has("error"))
                && sdkParse() instanceof McpSchema.JSONRPCResponse;
        if (!wellFormed || !initialized) {
            LOG.warn("stdin line {}: {} response ignored ({} bytes)", lineNumber,
                    wellFormed ? "unsolicited" : "malformed", length);
            return null;
        }
        return pass(buffer, length);
    }

    /** What the SDK's own reader makes of the line, or null where it would stop reading. */
    private McpSchema.JSONRPCMessage sdkParse() {
        try {
            return McpSchema.deserializeJsonRpcMessage(sdkMapper, line);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The line as the SDK should read it. Its reader also ends a line at a carriage return, which a
     * JSON text may hold only as whitespace between tokens (a raw one inside a string is invalid
     * JSON, rejected above), so each becomes a space.
     */
    private static byte[] pass(byte[] buffer, int length) {
        byte[] line = Arrays.copyOf(buffer, length + 1);
        for (int i = 0; i < length; i++) {
            if (line[i] == '\r') {
                line[i] = ' ';
            }
        }
        line[length] = '\n';
        return line;
    }

    private byte[] result(JsonNode id, String method, int length) {
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.set("id", id);
        response.set("result", NODES.objectNode());
        LOG.debug("stdin line {}: '{}' answered before initialization ({} bytes)", lineNumber, method, length);
        write(response);
        return null;
    }

    private byte[] reply(JsonNode id, int code, String message, int length) {
        LOG.warn("stdin line {} answered with error {} ({} bytes): {}", lineNumber, code, length, message);
        ObjectNode error = NODES.objectNode();
        error.put("code", code);
        error.put("message", message);
        ObjectNode response = NODES.objectNode();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.set("id", id);
        response.set("error", error);
        write(response);
        return null;
    }

    private void write(ObjectNode response) {
        try {
            out.writeLine(json.writeValueAsBytes(response));
        } catch (IOException e) {
            LOG.warn("could not write a reply to stdout: {}", e.toString());
        }
    }
}
