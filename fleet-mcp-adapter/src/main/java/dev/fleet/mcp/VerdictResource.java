package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;

/**
 * The MCP resource {@value #URI}: {@code resources/read} returns, as text, the verdict JSON this
 * server's {@link AssessFleetInventoryTool} returns (the same use case, the same bytes). A client
 * that subscribes is told when its digest changes ({@link VerdictSubscriptions}). Read-only, like
 * the tool: it reaches only the assessment.
 */
public final class VerdictResource {

    public static final String URI = "fleet://verdict";
    static final String MIME_TYPE = "application/json";
    static final String TITLE = "Fleet inventory verdict";
    private static final String DESCRIPTION = "The fleet's verdict, as gitea_assess_fleet_inventory returns it. "
            + "Subscribe to be told (notifications/resources/updated) when its verdict_digest changes; heartbeats "
            + "never count. Read-only.";

    private VerdictResource() {
    }

    public static McpSchema.Resource resource() {
        return McpSchema.Resource.builder()
                .uri(URI)
                .name("fleet-verdict")
                .title(TITLE)
                .description(DESCRIPTION)
                .mimeType(MIME_TYPE)
                .build();
    }

    /**
     * @param awaitOwnRegistration runs before each read, as before each tool call: the server waits
     *     there (bounded) for its own registration attempt, so it never lists itself as a stray
     */
    static SyncResourceSpecification specification(AssessFleetInventoryUseCase assess, Runnable awaitOwnRegistration) {
        Objects.requireNonNull(assess, "assess");
        Objects.requireNonNull(awaitOwnRegistration, "awaitOwnRegistration");
        return new SyncResourceSpecification(resource(), (exchange, request) -> {
            awaitOwnRegistration.run();
            return read(assess);
        });
    }

    static McpSchema.ReadResourceResult read(AssessFleetInventoryUseCase assess) {
        String json = VerdictDocument.canonicalJson(assess.assess());
        return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(URI, MIME_TYPE, json)));
    }
}
