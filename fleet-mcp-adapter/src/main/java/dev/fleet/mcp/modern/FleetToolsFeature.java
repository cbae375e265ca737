package dev.fleet.mcp.modern;

import dev.fleet.mcp.FleetAnswers;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * {@code tools/list} and {@code tools/call} in the 2026-07-28 era: the very tools of
 * {@link FleetAnswers}, listed and answered as in 2025. A feature of its own rather than the SDK's
 * {@code ToolsFeature}, which checks {@code arguments} against the input schema itself and answers
 * "Invalid arguments" first: the contract's refusal ("accepts no evidence", §7) is the tool's.
 */
final class FleetToolsFeature extends FleetFeature {

    FleetToolsFeature(FleetAnswers answers, LegacyTypes types) {
        super("tools/list", "tools/call", answers, types);
    }

    /** {@code tools: {listChanged: false}}, as in 2025: the two tools never change while the server runs. */
    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.tools(false);
    }

    @Override
    McpSchema.Result list() {
        List<McpSchema.Tool> tools = answers.tools().stream().map(tool -> types.modern(tool, McpSchema.Tool.class))
                .toList();
        return new McpSchema.ListToolsResult(tools, null, 0L, McpSchema.CacheScope.PRIVATE, null, null);
    }

    /** {@code tools/call}. */
    @Override
    McpSchema.Result answer(Map<String, Object> params) {
        if (params == null || !(params.get("name") instanceof String name) || name.isEmpty()) {
            throw McpException.invalidParams("name must be the tool's name, a non-empty string");
        }
        if (!answers.isFleetTool(name)) {
            throw McpException.invalidParams("Unknown tool: " + name);
        }
        return types.modern(answers.call(name, params.get("arguments")), McpSchema.CallToolResult.class);
    }
}
