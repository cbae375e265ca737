package dev.fleet.mcp.modern;

import dev.fleet.mcp.FleetAnswers;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * A pair of 2026-07-28 methods fleet answers from {@link FleetAnswers}, as it does in 2025: a list,
 * and the one request on what it lists ({@code tools/call}, {@code resources/read}).
 */
abstract class FleetFeature implements McpFeature {

    protected final FleetAnswers answers;
    protected final LegacyTypes types;
    private final String listMethod;
    private final String otherMethod;

    FleetFeature(String listMethod, String otherMethod, FleetAnswers answers, LegacyTypes types) {
        this.listMethod = listMethod;
        this.otherMethod = otherMethod;
        this.answers = Objects.requireNonNull(answers, "answers");
        this.types = Objects.requireNonNull(types, "types");
    }

    @Override
    public final Set<String> methods() {
        return Set.of(listMethod, otherMethod);
    }

    @Override
    public final Mono<McpAsyncResponse<McpSchema.Result>> handle(McpRequestContext context, Object params) {
        return Mono.fromCallable(() -> McpAsyncResponse.result(listMethod.equals(context.method())
                ? list() : answer(types.object(params))));
    }

    /** The list; {@code ttlMs} and {@code cacheScope} are required of it in this era: 0 and private claim nothing. */
    abstract McpSchema.Result list();

    /** The other method's answer to {@code params} (null when absent). */
    abstract McpSchema.Result answer(Map<String, Object> params);
}
