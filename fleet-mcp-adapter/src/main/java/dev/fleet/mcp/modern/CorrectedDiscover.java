package dev.fleet.mcp.modern;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * The SDK's modern server with two corrections to its {@code server/discover} result, every other
 * answer passing unchanged:
 * <ul>
 * <li>{@code resources.subscribe} is {@code true}, as this server honours {@value
 * dev.fleet.mcp.VerdictResource#URI} in a listen ({@link VerdictListenFeature}). SDK 2.2.0 clears
 * that flag unless its own subscriptions feature serves {@code subscriptions/listen}, and that
 * feature does not fit here (see {@link VerdictListenFeature}).</li>
 * <li>{@code supportedVersions} lists both eras this process serves ({@link ModernEra#DISCOVERED}), as
 * MCP's own example of a dual-era server does: a client that speaks only 2025-11-25 learns it may
 * {@code initialize}. The SDK's own list stays 2026-07-28 alone, because the SDK also accepts a
 * request's {@code _meta} version by it: a stateless request claiming 2025-11-25 keeps its -32022 (as
 * the TypeScript SDK's dual-era server answers it), and a modern client, which picks the first of its
 * own modern versions that the list holds, still picks 2026-07-28.</li>
 * </ul>
 */
final class CorrectedDiscover implements McpRequestManager {

    private static final String DISCOVER = "server/discover";
    private static final String SUPPORTED_VERSIONS = "supportedVersions";

    private final McpRequestManager server;

    CorrectedDiscover(McpRequestManager server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    @Override
    public Mono<McpTransportResponse> handle(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        return corrected(request, server.handle(context, request));
    }

    @Override
    public Mono<McpTransportResponse> handleBlocking(McpTransportContext context, JsonRpc.JSONRPCRequest request) {
        return corrected(request, server.handleBlocking(context, request));
    }

    @Override
    public Mono<Void> handleNotification(McpTransportContext context, JsonRpc.JSONRPCNotification notification) {
        return server.handleNotification(context, notification);
    }

    private static Mono<McpTransportResponse> corrected(JsonRpc.JSONRPCRequest request,
            Mono<McpTransportResponse> answer) {
        if (!DISCOVER.equals(request.method())) {
            return answer;
        }
        return answer.map(response -> response instanceof McpTransportResponse.Result result
                && result.response().result() instanceof Map<?, ?> fields ? McpTransportResponse.result(
                        JsonRpc.JSONRPCResponse.result(result.response().id(), corrected(fields))) : response);
    }

    /**
     * {@code fields} with {@code capabilities.resources.subscribe} true and both eras' versions, in the
     * order the SDK wrote them.
     */
    private static Map<Object, Object> corrected(Map<?, ?> fields) {
        Map<Object, Object> result = new LinkedHashMap<>(fields);
        if (fields.containsKey(SUPPORTED_VERSIONS)) {
            result.put(SUPPORTED_VERSIONS, ModernEra.DISCOVERED);
        }
        if (fields.get("capabilities") instanceof Map<?, ?> capabilities
                && capabilities.get("resources") instanceof Map<?, ?> resources) {
            Map<Object, Object> subscribe = new LinkedHashMap<>(resources);
            subscribe.put("subscribe", true);
            Map<Object, Object> corrected = new LinkedHashMap<>(capabilities);
            corrected.put("resources", subscribe);
            result.put("capabilities", corrected);
        }
        return result;
    }
}
