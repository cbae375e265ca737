package dev.fleet.mcp.modern;

import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.VerdictResource;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * {@code resources/list} and {@code resources/read} of {@value VerdictResource#URI} in the
 * 2026-07-28 era: the 2025 resource and the same read (the same verdict text), with the cache
 * fields this era requires. The verdict may change at any moment, so a read is never fresh for
 * longer than it takes to arrive ({@code ttlMs: 0}) and is this client's alone ({@code private}).
 */
final class VerdictResourceFeature implements McpFeature {

    private final FleetAnswers answers;
    private final LegacyTypes types;

    VerdictResourceFeature(FleetAnswers answers, LegacyTypes types) {
        this.answers = Objects.requireNonNull(answers, "answers");
        this.types = Objects.requireNonNull(types, "types");
    }

    @Override
    public Set<String> methods() {
        return Set.of("resources/list", "resources/read");
    }

    /** {@code resources: {subscribe: true, listChanged: false}}, as in 2025 (§8); {@link VerdictListenFeature} listens. */
    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.resources(true, false);
    }

    @Override
    public Mono<McpAsyncResponse<McpSchema.Result>> handle(McpRequestContext context, Object params) {
        return Mono.fromCallable(() -> McpAsyncResponse.result("resources/list".equals(context.method())
                ? list() : read(types.object(params))));
    }

    private McpSchema.Result list() {
        McpSchema.Resource verdict = types.modern(answers.verdictResource(), McpSchema.Resource.class);
        return new McpSchema.ListResourcesResult(List.of(verdict), null, 0L, McpSchema.CacheScope.PRIVATE, null, null);
    }

    private McpSchema.Result read(Map<String, Object> params) {
        Object uri = params == null ? null : params.get("uri");
        if (!VerdictResource.URI.equals(uri)) {
            // This era's "resource not found" is invalid params, with the URI as data.
            throw McpException.invalidParams("Resource not found: " + uri, Map.of("uri", String.valueOf(uri)));
        }
        McpSchema.ReadResourceResult read = types.modern(answers.readVerdict(), McpSchema.ReadResourceResult.class);
        return new McpSchema.ReadResourceResult(read.contents(), 0L, McpSchema.CacheScope.PRIVATE, null, null);
    }
}
