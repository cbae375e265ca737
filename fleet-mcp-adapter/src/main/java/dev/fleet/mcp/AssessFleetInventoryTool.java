package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Objects;

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

    private static final String DESCRIPTION = "Is the MCP server fleet exactly the roster, one client cohort, one "
            + "revision? Gate fleet-wide mutations on mutation_gate_satisfied alone. Every member returns the same "
            + "verdict and verdict_digest, so one call from any member suffices. No arguments.";

    static final ReadOnlyDocumentTool.Definition DEFINITION = new ReadOnlyDocumentTool.Definition(NAME,
            "Assess fleet inventory", DESCRIPTION, VerdictOutputSchema::schema, REFUSAL, "The fleet assessment failed "
                    + "unexpectedly, so nothing was established (treat the mutation gate as not satisfied)");

    private AssessFleetInventoryTool() {
    }

    /**
     * The tool over {@code useCase}. An unreadable registry or listing is already a blocked verdict
     * from the domain; anything unexpected becomes an error result.
     *
     * @param awaitOwnRegistration runs before each assessment: the server waits there (bounded) for
     *     its own registration attempt, so that it never lists itself as an unregistered process
     */
    static ReadOnlyDocumentTool of(AssessFleetInventoryUseCase useCase, Runnable awaitOwnRegistration) {
        Objects.requireNonNull(useCase, "useCase");
        return new ReadOnlyDocumentTool(DEFINITION, () -> answer(useCase), awaitOwnRegistration);
    }

    /** The verdict as a tree (structured content) and as its canonical JSON (text): the bytes the tree encodes to. */
    private static CallToolResult answer(AssessFleetInventoryUseCase useCase) {
        VerdictDocument.Rendered document = VerdictDocument.rendered(useCase.assess());
        return ToolResults.document(document.tree(), document.json());
    }
}
