package dev.fleet.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;

/**
 * The SDK's JSON mapper and schema validator on Jackson 2, built directly rather than found through
 * {@code ServiceLoader}: a shaded jar that lost a service file would otherwise fail only at run time.
 */
final class McpJson {

    private McpJson() {
    }

    static McpJsonMapper mapper() {
        return new JacksonMcpJsonMapper(new ObjectMapper());
    }

    static JsonSchemaValidator validator() {
        return new DefaultJsonSchemaValidator();
    }
}
