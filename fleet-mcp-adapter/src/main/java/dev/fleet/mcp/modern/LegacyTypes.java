package dev.fleet.mcp.modern;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.util.Map;

/**
 * The one bridge between the SDK's two schemas: {@code io.modelcontextprotocol.spec.McpSchema} (2025),
 * in which the fleet's tools and resource are defined once ({@code dev.fleet.mcp}), and
 * {@code io.modelcontextprotocol.modern.McpSchema} (2026-07-28). Both are plain JSON records, so a
 * definition or answer crosses as its JSON: the verdict's text is a string and passes byte for byte.
 */
final class LegacyTypes {

    private static final TypeRef<Map<String, Object>> OBJECT = new TypeRef<>() {
    };

    private final McpJsonMapper mapper;

    LegacyTypes(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    /** {@code legacy} (a 2025 schema record) as the modern record of {@code type}. */
    <T> T modern(Object legacy, Class<T> type) {
        return mapper.convertValue(mapper.convertValue(legacy, OBJECT), type);
    }

    /** A request's params as a JSON object, or null when they are not one. */
    Map<String, Object> object(Object params) {
        try {
            return params == null ? null : mapper.convertValue(params, OBJECT);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
