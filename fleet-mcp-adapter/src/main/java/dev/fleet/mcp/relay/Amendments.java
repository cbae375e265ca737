package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only changes the relay makes to what the child answers (the contract, §12 amendments 1, 2 and
 * 4): the fleet's capabilities added to the {@code initialize} (and {@code server/discover}) result,
 * the fleet tools appended to the last {@code tools/list} page and the verdict resource to the last
 * {@code resources/list} page, and a child's tool or resource of a fleet name left out, with one
 * warning line each.
 *
 * <p>Each change is spliced into the child's bytes ({@link Span}, {@link Splice}), never made by
 * re-encoding a tree, so everything else in those answers stays exactly as the child wrote it
 * (§12.1): numbers of any size and precision, strings, escapes, key order and whitespace.
 *
 * <p>It also remembers what the child declared, so the relay knows when to answer {@code tools/list}
 * or {@code resources/list} itself (a child without that capability).
 */
final class Amendments {

    private static final Logger LOG = LoggerFactory.getLogger(Amendments.class);
    /** Deep enough for result.capabilities.resources.subscribe and result.tools[i].name. */
    private static final int DEPTH = 4;
    private static final String TOOLS = "\"tools\":{}";
    private static final String SUBSCRIBE = "\"subscribe\":true";
    private static final String RESOURCES = "\"resources\":{" + SUBSCRIBE + "}";

    private final ArrayNode fleetTools;
    private final JsonNode verdictResource;
    private final Set<String> fleetToolNames;
    /** The fleet tools' and the verdict resource's entries as the last pages gain them. */
    private final List<byte[]> toolEntries;
    private final List<byte[]> resourceEntries;
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
        this.fleetToolNames = StreamSupport.stream(fleetTools.spliterator(), false)
                .map(tool -> tool.path("name").asText()).collect(Collectors.toUnmodifiableSet());
        this.toolEntries = StreamSupport.stream(fleetTools.spliterator(), false)
                .map(tool -> tool.toString().getBytes(UTF_8)).toList();
        this.resourceEntries = List.of(verdictResource.toString().getBytes(UTF_8));
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
     * The child's {@code initialize} or {@code server/discover} response in {@code line[start, end)}:
     * {@code tools} where absent, {@code resources.subscribe} true (the verdict is subscribable
     * whatever the child's are).
     *
     * @return the amended response, or null when it stays as it is
     */
    byte[] capabilities(byte[] line, int start, int end) {
        Span result = Span.read(line, start, end, DEPTH).member("result");
        if (result == null || !result.isObject() || !complete(result)) {
            return null;
        }
        Splice splice = new Splice();
        Span capabilities = result.member("capabilities");
        if (capabilities == null || !capabilities.isObject()) {
            childHasTools = false;
            childHasResources = false;
            String declared = "{" + TOOLS + "," + RESOURCES + "}";
            if (capabilities == null) {
                splice.addMembers(result, List.of("\"capabilities\":" + declared));
            } else {
                splice.replace(capabilities, declared);
            }
            return splice.apply(line, start, end);
        }
        Span tools = capabilities.member("tools");
        Span resources = capabilities.member("resources");
        childHasTools = tools != null && tools.isObject();
        childHasResources = resources != null && resources.isObject();
        List<String> added = new ArrayList<>();
        if (tools == null) {
            added.add(TOOLS);
        } else if (!tools.isObject()) {
            splice.replace(tools, "{}");
        }
        if (resources == null) {
            added.add(RESOURCES);
        } else if (!resources.isObject()) {
            splice.replace(resources, "{" + SUBSCRIBE + "}");
        } else {
            Span subscribe = resources.member("subscribe");
            if (subscribe == null) {
                splice.addMembers(resources, List.of(SUBSCRIBE));
            } else if (subscribe.token() != JsonToken.VALUE_TRUE) {
                splice.replace(subscribe, "true");
            }
        }
        splice.addMembers(capabilities, added);
        return splice.isEmpty() ? null : splice.apply(line, start, end);
    }

    /** A {@code tools/list} page: child tools of a fleet name left out, the fleet tools after the last page's. */
    byte[] toolsPage(byte[] line, int start, int end) {
        return page(line, start, end, "tools", "name", fleetToolNames::contains, toolEntries);
    }

    /** A {@code resources/list} page: the verdict resource after the last page's, a child's of its URI left out. */
    byte[] resourcesPage(byte[] line, int start, int end) {
        return page(line, start, end, "resources", "uri", verdictUri::equals, resourceEntries);
    }

    private byte[] page(byte[] line, int start, int end, String listName, String key, Predicate<String> fleets,
            List<byte[]> fleetEntries) {
        Span result = Span.read(line, start, end, DEPTH).member("result");
        Span list = result == null || !complete(result) ? null : result.member(listName);
        if (list == null || !list.isArray()) {
            return null;
        }
        List<Span> entries = list.elements();
        boolean[] cut = new boolean[entries.size()];
        boolean changed = false;
        for (int i = 0; i < cut.length; i++) {
            Span name = entries.get(i).member(key);
            if (name != null && name.text() != null && fleets.test(name.text())) {
                cut[i] = true;
                changed = true;
                if (warned.add(listName + "\0" + name.text())) {
                    LOG.warn("the wrapped server offers {} '{}', a name of the fleet's own: it is left out of {}/list; "
                            + "calls to it reach the fleet", listName.substring(0, listName.length() - 1),
                            name.text(), listName);
                }
            }
        }
        Span cursor = result.member("nextCursor");
        boolean last = cursor == null || cursor.token() == JsonToken.VALUE_NULL;
        if (!changed && !last) {
            return null;
        }
        Splice splice = new Splice();
        splice.cutAndAppend(list.close(), entries, cut, last ? fleetEntries : List.of());
        return splice.apply(line, start, end);
    }

    /**
     * Whether a result is the answer itself, not a 2026-07-28 {@code input_required} (or any other kind a later
     * revision adds): no {@code resultType} (or null), or {@code complete}. Only such a result is amended; the others
     * pass as they came (§13).
     */
    private static boolean complete(Span result) {
        Span type = result.member("resultType");
        return type == null || type.token() == JsonToken.VALUE_NULL || "complete".equals(type.text());
    }
}
