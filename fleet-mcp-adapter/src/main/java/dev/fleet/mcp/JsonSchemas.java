package dev.fleet.mcp;

import dev.fleet.domain.Code;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A few JSON Schema (2020-12) building blocks, so each tool's schema reads like the document it
 * describes. Nullable fields are {@code ["<type>","null"]}.
 */
final class JsonSchemas {

    private JsonSchemas() {
    }

    /** The contract: every fleet tool takes no arguments at all. */
    static Map<String, Object> noArguments() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of());
        schema.put("additionalProperties", false);
        return schema;
    }

    /** An object whose listed properties are all required (present, though perhaps null). */
    static Map<String, Object> object(Map<String, Object> properties) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.copyOf(properties.keySet()));
        return schema;
    }

    static Map<String, Object> object(Map<String, Object> properties, String description) {
        Map<String, Object> schema = object(properties);
        schema.put("description", description);
        return schema;
    }

    static Map<String, Object> string() {
        return Map.of("type", "string");
    }

    static Map<String, Object> nullableString() {
        return Map.of("type", List.of("string", "null"));
    }

    static Map<String, Object> integer() {
        return Map.of("type", "integer");
    }

    static Map<String, Object> nullableInteger() {
        return Map.of("type", List.of("integer", "null"));
    }

    static Map<String, Object> bool() {
        return Map.of("type", "boolean");
    }

    static Map<String, Object> nullableBool() {
        return Map.of("type", List.of("boolean", "null"));
    }

    static Map<String, Object> arrayOf(Map<String, Object> items) {
        return Map.of("type", "array", "items", items);
    }

    /** A UTC instant as the registry writes it ({@code YYYY-MM-DDTHH:MM:SS.sssZ}). */
    static Map<String, Object> instant() {
        return Map.of("type", "string", "format", "date-time");
    }

    static Map<String, Object> nullableInstant() {
        return Map.of("type", List.of("string", "null"), "format", "date-time");
    }

    /** One of the codes of a domain enum: the schema follows the domain, so it cannot drift from it. */
    static <E extends Enum<E> & Code> Map<String, Object> codes(Class<E> type) {
        return Map.of("type", "string", "enum", Arrays.stream(type.getEnumConstants()).map(Code::code).toList());
    }

    /** Properties in insertion order: schemas list fields in the document's order. */
    static Map<String, Object> properties(Object... namesAndSchemas) {
        if (namesAndSchemas.length % 2 != 0) {
            throw new IllegalArgumentException("properties come in name/schema pairs");
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < namesAndSchemas.length; i += 2) {
            properties.put((String) namesAndSchemas[i], namesAndSchemas[i + 1]);
        }
        return properties;
    }

    /** {@code schema} with a one-line {@code description}: a model reads it in every client's tool list. */
    static Map<String, Object> described(Map<String, Object> schema, String description) {
        Map<String, Object> copy = new LinkedHashMap<>(schema);
        copy.put("description", description);
        return copy;
    }

    /** A reference to a shape defined once under {@code $defs}. */
    static Map<String, Object> ref(String definition) {
        return Map.of("$ref", "#/$defs/" + definition);
    }

    /** An object whose properties are not listed as required: the compact form the verdict schema uses. */
    static Map<String, Object> openObject(Map<String, Object> properties) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        return schema;
    }

    /**
     * Properties without {@code "type": "object"}: for a shape nested in a typed array or under
     * {@code $defs}, where the keyword would only repeat what the position says.
     */
    static Map<String, Object> shape(Map<String, Object> properties) {
        return Map.of("properties", properties);
    }

    /** Codes without a type keyword (the enum says it all), optionally with null. */
    static <E extends Enum<E> & Code> Map<String, Object> enumOf(Class<E> type, boolean nullable) {
        List<Object> allowed = new ArrayList<>(Arrays.stream(type.getEnumConstants()).map(Code::code).toList());
        if (nullable) {
            allowed.add(null);
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("enum", allowed);
        return schema;
    }
}
