package dev.fleet.mcp;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.Map;

/**
 * The SDK's JSON Schema validator (networknt, 2020-12), built when a tool's result is first checked
 * against its output schema, not while the server starts. Building it loads the dialect and its
 * meta-schema (some 250 classes), and the SDK then checks every tool's schemas against that
 * meta-schema: about 180 ms of a server's start, spent before its row was written, five times over
 * when a client starts the whole fleet. The tools' schemas are constants of this build, checked
 * against the meta-schema by {@code ToolSurfaceTest} on what a client lists, so the SDK's check at
 * start is answered valid here; every result is still validated by the real validator.
 */
final class LazySchemaValidator implements JsonSchemaValidator {

    /** Built on first use, once per process (the holder idiom: thread-safe, no lock after). */
    private static final class Built {
        static final JsonSchemaValidator VALIDATOR = new DefaultJsonSchemaValidator();
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        return Built.VALIDATOR.validate(schema, structuredContent);
    }

    /** Only the SDK's start-up check of this build's own tool schemas asks this (see the class comment). */
    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
        return ValidationResponse.asValid(null);
    }
}
