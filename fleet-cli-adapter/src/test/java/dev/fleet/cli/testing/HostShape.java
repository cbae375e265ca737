package dev.fleet.cli.testing;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A {@code fleet host --format json} report checked against a published schema by a real JSON Schema
 * 2020-12 validator (the MCP SDK's, networknt), {@code $ref}s, enums and the stray's if/then resolved.
 */
public final class HostShape {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HostShape() {
    }

    /** What the validator says of {@code report} (JSON text) against {@code schema} (JSON text). */
    public static ValidationResponse validate(String schema, String report) {
        try {
            Map<String, Object> tree = JSON.readValue(schema, new TypeReference<Map<String, Object>>() { });
            Object document = JSON.readValue(report, Object.class);
            return new DefaultJsonSchemaValidator().validate(tree, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
