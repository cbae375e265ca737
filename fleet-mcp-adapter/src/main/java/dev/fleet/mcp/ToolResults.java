package dev.fleet.mcp;

import dev.fleet.domain.verdict.encoding.CanonicalJson;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/** The two shapes a fleet tool answers with: a document (structured + the same JSON as text) or an error result. */
final class ToolResults {

    private ToolResults() {
    }

    /**
     * The document as structured content and its canonical JSON as text: one encoding, defined in
     * the domain, so the text is byte-identical to what {@code fleet assess --format json} prints.
     */
    static CallToolResult document(Map<String, Object> tree) {
        return document(tree, CanonicalJson.encode(tree));
    }

    /** {@link #document(Map)} for a caller that already has the tree's canonical JSON. */
    static CallToolResult document(Map<String, Object> tree, String canonicalJson) {
        return CallToolResult.builder()
                .structuredContent(tree)
                .content(List.of(McpSchema.TextContent.builder(canonicalJson).build()))
                .isError(false)
                .build();
    }

    /** A tool-level error: the client sees {@code isError: true} and the message, never a protocol error. */
    static CallToolResult error(String message) {
        return CallToolResult.builder()
                .content(List.of(McpSchema.TextContent.builder(message).build()))
                .isError(true)
                .build();
    }

    static boolean hasArguments(McpSchema.CallToolRequest request) {
        return request.arguments() != null && !request.arguments().isEmpty();
    }

    /**
     * Read-only, non-destructive, idempotent, closed world: what the contract promises of both tools.
     * No title here: the tool has one, and every byte of a definition is in every client's context.
     */
    static McpSchema.ToolAnnotations readOnly() {
        return new McpSchema.ToolAnnotations(null, true, false, true, false, null);
    }
}
