package dev.fleet.mcp.modern;

import dev.fleet.mcp.VerdictListens;
import dev.fleet.mcp.VerdictResource;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncNotifier;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code subscriptions/listen} in the 2026-07-28 era: the only subscription this server honours is
 * {@value VerdictResource#URI} in {@code resourceSubscriptions}; it acknowledges that subset first,
 * then sends {@code notifications/resources/updated} each time the verdict's digest changes (the
 * 2025 era's watcher, {@link VerdictListens}), tagged with the listen's id, until the client cancels
 * or the server closes (then the listen's graceful result).
 *
 * <p>Not the SDK's own subscriptions feature: it honours any URI and any list-changed kind, and
 * advertises {@code listChanged: true}, where this server's capabilities stay those of §8; and it
 * tells a server nothing of who listens, where the verdict must be assessed only while someone does.
 */
final class VerdictListenFeature implements McpFeature {

    static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

    private final VerdictListens listens;

    VerdictListenFeature(VerdictListens listens) {
        this.listens = Objects.requireNonNull(listens, "listens");
    }

    @Override
    public Set<String> methods() {
        return Set.of("subscriptions/listen");
    }

    @Override
    public Mono<McpAsyncResponse<McpSchema.Result>> handle(McpRequestContext context, Object params) {
        if (!(params instanceof Map<?, ?> fields) || !(fields.get("notifications") instanceof Map<?, ?> filter)) {
            return Mono.error(McpException.invalidParams("params.notifications is required"));
        }
        Object uris = filter.get(McpSchema.SubscriptionFilter.RESOURCE_SUBSCRIPTIONS);
        if (uris != null && !(uris instanceof List<?>)) {
            // The SDK's filter drops a value that is no list unread: such a listen was held open for nothing.
            return Mono.error(McpException.invalidParams("params.notifications."
                    + McpSchema.SubscriptionFilter.RESOURCE_SUBSCRIPTIONS + " must be a list of resource URIs"));
        }
        McpSchema.SubscriptionFilter requested;
        try {
            @SuppressWarnings("unchecked")
            Map<String, ?> asked = (Map<String, ?>) filter;
            requested = McpSchema.SubscriptionFilter.of(asked);
        } catch (IllegalArgumentException malformed) {
            // The SDK's own check (an empty kind, say): the client's bad params, never a failure of the server's.
            return Mono.error(McpException.invalidParams("params.notifications is malformed: " + malformed.getMessage()));
        }
        boolean verdict = requested.resourceSubscriptionsOrEmpty().contains(VerdictResource.URI);
        McpSchema.SubscriptionFilter honoured = verdict ? McpSchema.SubscriptionFilter.of(
                Map.of(McpSchema.SubscriptionFilter.RESOURCE_SUBSCRIPTIONS, List.of(VerdictResource.URI)))
                : McpSchema.SubscriptionFilter.EMPTY;
        return Mono.just(McpAsyncResponse.streaming(notifier -> listen(context.requestId(), honoured, verdict,
                notifier)));
    }

    /**
     * The listen's life: acknowledged once the watcher has its baseline, then told of every change after that.
     * It is counted open before it is acknowledged, not once its changes are subscribed to after: in between,
     * the watcher found no one listening and stopped, and a change there was folded into the next watcher's
     * baseline, never announced (a loaded host's listen missed a member killed at once).
     */
    Mono<McpSchema.Result> listen(Object id, McpSchema.SubscriptionFilter honoured, boolean verdict,
            McpAsyncNotifier notifier) {
        Map<String, Object> meta = Map.of(SUBSCRIPTION_ID, id);
        // Acknowledged once the watcher has its baseline, so a change after the acknowledgement is announced.
        Mono<Void> ready = verdict ? Mono.<Void>fromRunnable(this::ready).subscribeOn(Schedulers.boundedElastic())
                : Mono.empty();
        Object granted = new McpSchema.SubscriptionsAcknowledgedParams(honoured, meta);
        Mono<Void> acknowledged = ready.then(Mono.defer(() -> notifier.notify(
                "notifications/subscriptions/acknowledged", granted)));
        // Nothing of this listen may precede its acknowledgement; a listen granted nothing stays open, quiet.
        Flux<Void> life = verdict ? listens.counted(listens.changes().skipUntilOther(acknowledged).concatMap(change ->
                notifier.notify("notifications/resources/updated", Map.of("uri", VerdictResource.URI, "_meta", meta))))
                : acknowledged.thenMany(listens.closing());
        return life.then(Mono.fromSupplier(() -> McpSchema.SubscriptionsListenResult.forSubscription(id)));
    }

    private void ready() {
        try {
            listens.ready();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the listen is ending: nothing to wait for
        }
    }
}
