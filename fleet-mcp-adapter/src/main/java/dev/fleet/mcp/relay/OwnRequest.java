package dev.fleet.mcp.relay;

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

    /**
     * Which of these {@code method} is, with the string {@code params.name} and {@code params.uri} (null
     * where absent or no string), or null when it is the child's to answer.
     */
    static OwnRequest of(String method, String paramsName, String paramsUri, FleetAnswers fleet, Amendments child) {
        if (method == null) {
            return null;
        }
        boolean verdict = VerdictResource.URI.equals(paramsUri);
        return switch (method) {
            case "tools/call" -> paramsName != null && fleet.isFleetTool(paramsName) ? CALL_FLEET_TOOL : null;
            case "resources/read" -> verdict ? READ_VERDICT : null;
            case "resources/subscribe" -> verdict ? SUBSCRIBE_VERDICT : null;
            case "resources/unsubscribe" -> verdict ? UNSUBSCRIBE_VERDICT : null;
            case "tools/list" -> child.childLacksTools() ? LIST_TOOLS : null;
            case "resources/list" -> child.childLacksResources() ? LIST_RESOURCES : null;
            case "resources/templates/list" -> child.childLacksResources() ? LIST_RESOURCE_TEMPLATES : null;
            default -> null;
        };
    }

    /**
     * The fleet's own answer to the list {@code method} ({@code tools/list}, {@code resources/list} or
     * {@code resources/templates/list}), which it gives where the child does not know the method (§13).
     */
    static OwnRequest listed(String method) {
        return switch (method) {
            case "tools/list" -> LIST_TOOLS;
            case "resources/list" -> LIST_RESOURCES;
            case "resources/templates/list" -> LIST_RESOURCE_TEMPLATES;
            default -> throw new IllegalArgumentException("the fleet lists nothing for " + method);
        };
    }

    /** Whether the request names {@code fleet://verdict}: a read, a subscription or its end. */
    boolean readsTheVerdict() {
        return this == READ_VERDICT || this == SUBSCRIBE_VERDICT || this == UNSUBSCRIBE_VERDICT;
    }

    /** Whether the answer is a list or a read, which the 2026-07-28 era makes cacheable ({@code ttlMs}, {@code cacheScope}). */
    boolean cacheable() {
        return this == READ_VERDICT || this == LIST_TOOLS || this == LIST_RESOURCES || this == LIST_RESOURCE_TEMPLATES;
    }

    /**
     * Whether this names the fleet's own tool or resource, which the child must never be sent, even as
     * a notification (the contract, §12.1); the lists only stand in for a child without them.
     */
    boolean namesTheFleet() {
        return this == CALL_FLEET_TOOL || this == READ_VERDICT || this == SUBSCRIBE_VERDICT
                || this == UNSUBSCRIBE_VERDICT;
    }
}
