package dev.fleet.mcp;

import com.fasterxml.jackson.databind.JsonMappingException;
import dev.fleet.domain.Failures;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.Map;

/**
 * Whether the SDK can read a request's params as its handler will. The SDK answers a request whose
 * params it cannot read with -32603 and a stack trace in its log (over HTTP, with no answer at all),
 * so both transports ask this first and answer -32602 in one line: the stdio gate and the HTTP guard
 * share this one check.
 */
public final class RequestParams {

    /**
     * The most JSON an {@code initialize}'s params may hold. The session keeps the client's capabilities
     * and clientInfo for its whole life, so without a bound a few hundred sessions of 1 MiB each hold
     * gigabytes; real clients send well under 2 KiB. Both transports share it: stdio has one session per
     * process, where it matters less, but one rule is simpler to document and to trust.
     */
    public static final int MAX_INITIALIZE_PARAMS_BYTES = 16 * 1024;
    private static final int MAX_DETAIL_CHARS = 200;

    private RequestParams() {
    }

    /**
     * Why the SDK could not read {@code params} for {@code method}, or null when it can (or when the
     * method's params are not this server's concern).
     *
     * @param params the request's params as plain JSON values (a map for an object), or null when absent
     */
    public static String problem(McpJsonMapper sdkMapper, String method, Object params) {
        Class<?> type = switch (method) {
            case McpSchema.METHOD_INITIALIZE -> McpSchema.InitializeRequest.class;
            case McpSchema.METHOD_TOOLS_CALL -> McpSchema.CallToolRequest.class;
            case McpSchema.METHOD_RESOURCES_READ -> McpSchema.ReadResourceRequest.class;
            case McpSchema.METHOD_LOGGING_SET_LEVEL -> McpSchema.SetLevelRequest.class;
            default -> null;
        };
        boolean subscription = McpSchema.METHOD_RESOURCES_SUBSCRIBE.equals(method)
                || McpSchema.METHOD_RESOURCES_UNSUBSCRIBE.equals(method);
        if (type == null && !subscription) {
            return null;
        }
        if (!(params instanceof Map<?, ?> fields)) {
            return "params are required";
        }
        if (subscription) {
            // The SDK's handler reads the uri itself (and fails without an answer when it is not there), and
            // its _meta as a map (answering a non-object with Jackson's words and this server's classes).
            if (!(fields.get("uri") instanceof String)) {
                return "uri must be a string";
            }
            Object meta = fields.get("_meta");
            return meta == null || meta instanceof Map ? null : notOfItsType("_meta");
        }
        // The SDK's handlers take these for granted, and fail without an answer when they are not there.
        String required = type == McpSchema.SetLevelRequest.class ? "level"
                : type == McpSchema.InitializeRequest.class || type == McpSchema.CallToolRequest.class ? null : "uri";
        if (required != null && !(fields.get(required) instanceof String)) {
            return required + " must be a string";
        }
        if (type == McpSchema.InitializeRequest.class && !fitsInitializeBound(sdkMapper, fields)) {
            return "params exceed " + MAX_INITIALIZE_PARAMS_BYTES + " bytes of JSON";
        }
        if (type == McpSchema.CallToolRequest.class
                && !(fields.get("name") instanceof String name && !name.isEmpty())) {
            return "name must be the tool's name, a non-empty string";
        }
        try {
            sdkMapper.convertValue(fields, type);
            return null;
        } catch (RuntimeException e) {
            return unlike(e);
        }
    }

    /**
     * Why params could not be read as MCP's type for them, from the mapper's failure: where, never Jackson's
     * words, which name this server's Java classes (no client's concern). The relay answers its own requests
     * with it too.
     */
    public static String unlike(RuntimeException mappingFailure) {
        for (Throwable cause : Failures.chain(mappingFailure)) {
            if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
                return notOfItsType(clientText(path(mapping)));
            }
        }
        return "they are not of the shape MCP gives them";
    }

    /** Why a value at {@code where} in the params is refused: the stdio gate's, the HTTP guard's and the relay's words. */
    public static String notOfItsType(String where) {
        return "the value of " + where + " is not of the type MCP gives it";
    }

    /** Where in the params a mapping failed: {@code capabilities.roots}, {@code arguments[2]}. */
    private static String path(JsonMappingException mapping) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference step : mapping.getPath()) {
            if (step.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(step.getFieldName());
            } else if (step.getIndex() >= 0) {
                path.append('[').append(step.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "params" : path.toString();
    }

    /** Whether {@code params}, written back as compact JSON, fit {@link #MAX_INITIALIZE_PARAMS_BYTES}. */
    private static boolean fitsInitializeBound(McpJsonMapper sdkMapper, Map<?, ?> params) {
        try {
            return sdkMapper.writeValueAsBytes(params).length <= MAX_INITIALIZE_PARAMS_BYTES;
        } catch (IOException e) {
            return false; // plain JSON values always write; if not, refusing is the safe side
        }
    }

    /**
     * Text from the client (a method name, a parser's message quoting the request), shortened and on
     * one line with control characters masked, for a message or a log line. Not an exception's
     * description: that is {@code dev.fleet.domain.Failures}'.
     */
    public static String clientText(String text) {
        if (text == null) {
            return "";
        }
        String first = text.lines().findFirst().orElse("").strip();
        StringBuilder printable = new StringBuilder();
        first.codePoints().limit(MAX_DETAIL_CHARS).forEach(c -> printable.appendCodePoint(
                Character.isISOControl(c) ? '?' : c));
        return first.codePointCount(0, first.length()) > MAX_DETAIL_CHARS ? printable + "…" : printable.toString();
    }
}
