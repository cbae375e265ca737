package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only changes the relay makes to what the child answers (the contract, §12 amendments 1, 2 and
 * 4): the fleet's capabilities added to the {@code initialize} (and {@code server/discover}) result,
 * the fleet tools appended to the last {@code tools/list} page and the verdict resource to the last
 * {@code resources/list} page, and a child's tool or resource of a fleet name left out, with one
 * warning line each. Everything else in those answers stays as the child wrote it.
 *
 * <p>It also remembers what the child declared, so the relay knows when to answer {@code tools/list}
 * or {@code resources/list} itself (a child without that capability).
 */
final class Amendments {

    private static final Logger LOG = LoggerFactory.getLogger(Amendments.class);

    private final ArrayNode fleetTools;
    private final JsonNode verdictResource;
    private final Set<String> fleetToolNames;
    /** What the last {@code resources/list} page gains: the verdict resource (entries are copied as they are added). */
    private final ArrayNode fleetResources;
    private final String verdictUri;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private volatile Boolean childHasTools;
    private volatile Boolean childHasResources;

    /**
     * @param fleetTools the fleet tools as {@code tools/list} lists them
     * @param verdictResource the verdict resource as {@code resources/list} lists it
     */
    Amendments(ArrayNode fleetTools, JsonNode verdictResource) {
        this.fleetTools = Objects.requireNonNull(fleetTools, "fleetTools");
        this.verdictResource = Objects.requireNonNull(verdictResource, "verdictResource");
        this.fleetToolNames = java.util.stream.StreamSupport.stream(fleetTools.spliterator(), false)
                .map(tool -> tool.path("name").asText()).collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.fleetResources = fleetTools.arrayNode().add(verdictResource.deepCopy());
        this.verdictUri = verdictResource.path("uri").asText();
    }

    /** Whether the child's {@code initialize} result said it has no tools (false until it said). */
    boolean childLacksTools() {
        return Boolean.FALSE.equals(childHasTools);
    }

    /** Whether the child's {@code initialize} result said it has no resources (false until it said). */
    boolean childLacksResources() {
        return Boolean.FALSE.equals(childHasResources);
    }

    ArrayNode fleetTools() {
        return fleetTools.deepCopy();
    }

    JsonNode verdictResource() {
        return verdictResource.deepCopy();
    }

    /**
     * The child's {@code initialize} or {@code server/discover} result: {@code tools} where absent,
     * {@code resources.subscribe} true (the verdict is subscribable whatever the child's are).
     *
     * @return whether the response changed
     */
    boolean capabilities(ObjectNode response) {
        if (!(response.get("result") instanceof ObjectNode result)) {
            return false;
        }
        JsonNode declared = result.get("capabilities");
        ObjectNode capabilities = declared instanceof ObjectNode object ? object : result.putObject("capabilities");
        childHasTools = capabilities.get("tools") instanceof ObjectNode;
        childHasResources = capabilities.get("resources") instanceof ObjectNode;
        if (!childHasTools) {
            capabilities.putObject("tools");
        }
        ObjectNode resources = childHasResources ? (ObjectNode) capabilities.get("resources")
                : capabilities.putObject("resources");
        resources.put("subscribe", true);
        return true;
    }

    /** A {@code tools/list} page: child tools of a fleet name left out, the fleet tools after the last page's. */
    boolean toolsPage(ObjectNode response) {
        return page(response, "tools", "name", fleetToolNames::contains, fleetTools);
    }

    /** A {@code resources/list} page: the verdict resource after the last page's, a child's of its URI left out. */
    boolean resourcesPage(ObjectNode response) {
        return page(response, "resources", "uri", verdictUri::equals, fleetResources);
    }

    private boolean page(ObjectNode response, String listName, String key, java.util.function.Predicate<String> fleets,
            ArrayNode fleetEntries) {
        if (!(response.get("result") instanceof ObjectNode result) || !(result.get(listName) instanceof ArrayNode list)) {
            return false;
        }
        boolean changed = false;
        for (Iterator<JsonNode> entries = list.elements(); entries.hasNext(); ) {
            JsonNode entry = entries.next();
            String name = entry.path(key).asText(null);
            if (name != null && fleets.test(name)) {
                entries.remove();
                changed = true;
                if (warned.add(listName + "\0" + name)) {
                    LOG.warn("the wrapped server offers {} '{}', a name of the fleet's own: it is left out of {}/list; "
                            + "calls to it reach the fleet", listName.substring(0, listName.length() - 1), name,
                            listName);
                }
            }
        }
        JsonNode cursor = result.get("nextCursor");
        if (cursor == null || cursor.isNull()) {
            fleetEntries.forEach(entry -> list.add(entry.deepCopy()));
            changed = true;
        }
        return changed;
    }
}
