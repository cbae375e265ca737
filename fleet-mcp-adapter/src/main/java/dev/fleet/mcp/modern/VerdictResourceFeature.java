package dev.fleet.mcp.modern;

import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.VerdictResource;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * {@code resources/list} and {@code resources/read} of {@value VerdictResource#URI} in the
 * 2026-07-28 era: the 2025 resource and the same read (the same verdict text), with the cache
 * fields this era requires. The verdict may change at any moment, so a read is never fresh for
 * longer than it takes to arrive ({@code ttlMs: 0}) and is this client's alone ({@code private}).
 */
final class VerdictResourceFeature extends FleetFeature {

    VerdictResourceFeature(FleetAnswers answers, LegacyTypes types) {
        super("resources/list", "resources/read", answers, types);
    }

    /** {@code resources: {subscribe: true, listChanged: false}}, as in 2025 (§8); {@link VerdictListenFeature} listens. */
    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.resources(true, false);
    }

    @Override
    McpSchema.Result list() {
        McpSchema.Resource verdict = types.modern(answers.verdictResource(), McpSchema.Resource.class);
        return new McpSchema.ListResourcesResult(List.of(verdict), null, 0L, McpSchema.CacheScope.PRIVATE, null, null);
    }

    /** {@code resources/read}. */
    @Override
    McpSchema.Result answer(Map<String, Object> params) {
        Object uri = params == null ? null : params.get("uri");
        if (!(uri instanceof String named)) {
            // Never echoed: a map or a list would come back as Java's rendering of it, not as JSON.
            throw McpException.invalidParams("resources/read needs a uri, as a string");
        }
        if (!VerdictResource.URI.equals(named)) {
            // This era's "resource not found" is invalid params, with the URI as data.
            throw McpException.invalidParams("Resource not found: " + named, Map.of("uri", named));
        }
        McpSchema.ReadResourceResult read = types.modern(answers.readVerdict(), McpSchema.ReadResourceResult.class);
        return new McpSchema.ReadResourceResult(read.contents(), 0L, McpSchema.CacheScope.PRIVATE, null, null);
    }
}
