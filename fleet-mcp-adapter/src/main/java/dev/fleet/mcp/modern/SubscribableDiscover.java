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
 * The SDK's modern server with one correction to its {@code server/discover} result:
 * {@code resources.subscribe} is {@code true}, as this server honours {@value
 * dev.fleet.mcp.VerdictResource#URI} in a listen ({@link VerdictListenFeature}). SDK 2.2.0 clears
 * that flag unless its own subscriptions feature serves {@code subscriptions/listen}, and that
 * feature does not fit here (see {@link VerdictListenFeature}). Every other answer passes unchanged.
 */
final class SubscribableDiscover implements McpRequestManager {

    private static final String DISCOVER = "server/discover";

    private final McpRequestManager server;

    SubscribableDiscover(McpRequestManager server) {
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
                        JsonRpc.JSONRPCResponse.result(result.response().id(), subscribable(fields))) : response);
    }

    /** {@code fields} with {@code capabilities.resources.subscribe} true, in the order the SDK wrote them. */
    private static Map<Object, Object> subscribable(Map<?, ?> fields) {
        Map<Object, Object> result = new LinkedHashMap<>(fields);
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
