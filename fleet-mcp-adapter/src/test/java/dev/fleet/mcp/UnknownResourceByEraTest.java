package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A URI other than {@code fleet://verdict} is each era's own "resource not found" on a plain stdio
 * server: -32002 in 2025-11-25 (§8), and in 2026-07-28, whose revision forbids -32002 (SEP-2164),
 * -32602 with the URI as {@code data.uri}. The verdict itself is the same in both (§13).
 */
class UnknownResourceByEraTest {

    @TempDir
    Path temp;

    @Test
    void theModernEraAnswersInvalidParamsWithTheUri() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://nope\","
                    + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"era\",\"version\":\"1\"},"
                    + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
            JsonNode error = server.response(7).path("error");

            assertEquals(-32602, error.path("code").asInt(), error::toString);
            assertEquals("fleet://nope", error.path("data").path("uri").asText(), error::toString);
        }
    }

    @Test
    void the2025EraAnswersResourceNotFound() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp)) {
            server.initialize();
            server.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://nope\"}}");
            JsonNode error = server.response(8).path("error");

            assertEquals(-32002, error.path("code").asInt(), error::toString);
        }
    }
}
