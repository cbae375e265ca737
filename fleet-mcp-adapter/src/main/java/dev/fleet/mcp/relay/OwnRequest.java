package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.VerdictResource;

/**
 * The client requests a wrapping member answers itself (the contract, §12 amendments 2 to 4); every
 * other request goes to the child.
 */
enum OwnRequest {
    CALL_FLEET_TOOL,
    READ_VERDICT,
    SUBSCRIBE_VERDICT,
    UNSUBSCRIBE_VERDICT,
    /** {@code tools/list} of a child without tools. */
    LIST_TOOLS,
    /** {@code resources/list} of a child without resources. */
    LIST_RESOURCES,
    /** {@code resources/templates/list} of a child without resources. */
    LIST_RESOURCE_TEMPLATES;

    /** Which of these {@code method} with {@code params} is, or null when it is the child's to answer. */
    static OwnRequest of(String method, JsonNode params, FleetAnswers fleet, Amendments child) {
        JsonNode safeParams = params == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : params;
        boolean verdict = VerdictResource.URI.equals(safeParams.path("uri").textValue());
        return switch (method) {
            case "tools/call" -> {
                String name = safeParams.path("name").textValue();
                yield name != null && fleet.isFleetTool(name) ? CALL_FLEET_TOOL : null;
            }
            case "resources/read" -> verdict ? READ_VERDICT : null;
            case "resources/subscribe" -> verdict ? SUBSCRIBE_VERDICT : null;
            case "resources/unsubscribe" -> verdict ? UNSUBSCRIBE_VERDICT : null;
            case "tools/list" -> child.childLacksTools() ? LIST_TOOLS : null;
            case "resources/list" -> child.childLacksResources() ? LIST_RESOURCES : null;
            case "resources/templates/list" -> child.childLacksResources() ? LIST_RESOURCE_TEMPLATES : null;
            default -> null;
        };
    }
}
