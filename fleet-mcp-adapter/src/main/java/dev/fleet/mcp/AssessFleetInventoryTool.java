package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code gitea_assess_fleet_inventory}: the verdict, observed by this process. It takes no
 * arguments on purpose: evidence a caller passes in proves nothing about the caller, so any
 * argument is refused rather than ignored.
 */
public final class AssessFleetInventoryTool {

    public static final String NAME = "gitea_assess_fleet_inventory";

    static final String REFUSAL = NAME + " accepts no evidence: it takes no arguments and observes the fleet itself "
            + "(this server reads the runtime registry and the process table on its own). Call it again with "
            + "empty arguments.";

    private static final Logger LOG = LoggerFactory.getLogger(AssessFleetInventoryTool.class);

    private static final String DESCRIPTION = "Assess whether the MCP server fleet is exactly the roster's members, "
            + "from one client cohort at one revision, before a fleet-wide mutation. The answering server reads the "
            + "runtime registry and observes the process table itself; it takes no parameters, writes nothing, and "
            + "never starts, stops or signals a process. Returns the verdict (mutation_gate_satisfied, "
            + "blocked_reason(s) with actions, members, duplicates, unexpected/stale/unregistered processes, cohort "
            + "and revision, verdict_digest).";

    private final AssessFleetInventoryUseCase useCase;

    public AssessFleetInventoryTool(AssessFleetInventoryUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    public static McpSchema.Tool tool() {
        return McpSchema.Tool.builder(NAME, JsonSchemas.noArguments())
                .title("Assess fleet inventory")
                .description(DESCRIPTION)
                .outputSchema(VerdictOutputSchema.schema())
                .annotations(ToolResults.readOnly("Assess fleet inventory"))
                .build();
    }

    public SyncToolSpecification specification() {
        return SyncToolSpecification.builder()
                .tool(tool())
                .callHandler((exchange, request) -> call(request))
                .build();
    }

    /**
     * Never throws: an unreadable registry or listing is already a blocked verdict from the domain,
     * and anything unexpected becomes an error result rather than a protocol error.
     */
    CallToolResult call(CallToolRequest request) {
        if (ToolResults.hasArguments(request)) {
            return ToolResults.error(REFUSAL);
        }
        try {
            Verdict verdict = useCase.assess();
            Map<String, Object> tree = VerdictDocument.toTree(verdict);
            return ToolResults.document(tree);
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable failure) {
            LOG.error("assessment failed", failure);
            return ToolResults.error("The fleet assessment failed unexpectedly, so nothing was established "
                    + "(treat the mutation gate as not satisfied): " + ToolResults.describe(failure));
        }
    }
}
