package dev.fleet.mcp;

import dev.fleet.domain.port.in.OwnRegistrationUseCase;
import java.time.Duration;
import java.util.Objects;

/** {@code gitea_get_runtime_context}: this process's identity and its own registration, or why it failed. */
public final class RuntimeContextTool {

    public static final String NAME = "gitea_get_runtime_context";

    static final String REFUSAL = NAME + " takes no arguments: it reports this server's own runtime context.";

    private static final String DESCRIPTION = "Report this MCP server's own runtime context: pid, profile, "
            + "namespace, role, transport, endpoint, binding, cohort, startup head, and its runtime-registry "
            + "registration (registered, failed with the error, or pending). Read-only; takes no arguments. "
            + "For the fleet, call " + AssessFleetInventoryTool.NAME + " instead: every member returns the same "
            + "verdict and verdict_digest, so one call from any member suffices, and mutation_gate_satisfied is "
            + "the only field to gate on.";

    static final ReadOnlyDocumentTool.Definition DEFINITION = new ReadOnlyDocumentTool.Definition(NAME,
            "Get runtime context", DESCRIPTION, RuntimeContextDocument::schema, REFUSAL,
            "Could not report the runtime context");

    private RuntimeContextTool() {
    }

    /**
     * The tool over {@code lifecycle}. A call that arrives before the first registration attempt
     * has finished waits for it (at most {@code registrationWait}), so it reports the outcome, not
     * {@code pending}.
     */
    static ReadOnlyDocumentTool of(OwnRegistrationUseCase lifecycle, Duration registrationWait) {
        Objects.requireNonNull(lifecycle, "lifecycle");
        Objects.requireNonNull(registrationWait, "registrationWait");
        return new ReadOnlyDocumentTool(DEFINITION,
                () -> ToolResults.document(RuntimeContextDocument.toTree(lifecycle.identity(), lifecycle.state())),
                () -> lifecycle.awaitRegistrationAttempt(registrationWait));
    }
}
