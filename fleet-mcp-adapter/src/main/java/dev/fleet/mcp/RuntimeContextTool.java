package dev.fleet.mcp;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code gitea_get_runtime_context}: this process's identity and its own registration, or why it failed. */
public final class RuntimeContextTool {

    public static final String NAME = "gitea_get_runtime_context";

    static final String REFUSAL = NAME + " takes no arguments: it reports this server's own runtime context.";

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeContextTool.class);

    private static final String DESCRIPTION = "Report this MCP server's own runtime context: pid, profile, "
            + "namespace, role, transport, binding, cohort, startup head, and its runtime-registry registration "
            + "(registered, failed with the error, or pending). Read-only; takes no parameters.";

    private final ServerLifecycle lifecycle;

    public RuntimeContextTool(ServerLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    public static McpSchema.Tool tool() {
        return McpSchema.Tool.builder(NAME, JsonSchemas.noArguments())
                .title("Get runtime context")
                .description(DESCRIPTION)
                .outputSchema(RuntimeContextDocument.schema())
                .annotations(ToolResults.readOnly("Get runtime context"))
                .build();
    }

    public SyncToolSpecification specification() {
        return SyncToolSpecification.builder()
                .tool(tool())
                .callHandler((exchange, request) -> call(request))
                .build();
    }

    CallToolResult call(CallToolRequest request) {
        if (ToolResults.hasArguments(request)) {
            return ToolResults.error(REFUSAL);
        }
        try {
            return ToolResults.document(RuntimeContextDocument.toTree(lifecycle.identity(), lifecycle.state()));
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable failure) {
            LOG.error("runtime context failed", failure);
            return ToolResults.error("Could not report the runtime context: " + ToolResults.describe(failure));
        }
    }
}
