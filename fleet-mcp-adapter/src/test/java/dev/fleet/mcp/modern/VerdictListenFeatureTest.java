package dev.fleet.mcp.modern;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.mcp.VerdictListens;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncNotifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/** A listen is counted open before it is acknowledged, so no change after its acknowledgement can be missed. */
class VerdictListenFeatureTest {

    @Test
    void aListenIsOpenWhenItIsAcknowledged() throws InterruptedException {
        VerdictListens listens = new VerdictListens();
        List<String> seen = new CopyOnWriteArrayList<>();
        McpAsyncNotifier notifier = new McpAsyncNotifier() {
            @Override
            public Mono<Void> progress(double progress, Double total, String message) {
                return Mono.empty();
            }

            @Override
            public Mono<Void> notify(String method, Object params) {
                return Mono.fromRunnable(() -> seen.add(method + " with " + listens.open() + " open")); // sent when subscribed
            }
        };
        McpSchema.SubscriptionFilter honoured = McpSchema.SubscriptionFilter.of(Map.of(
                McpSchema.SubscriptionFilter.RESOURCE_SUBSCRIPTIONS, List.of("fleet://verdict")));

        Disposable listening = new VerdictListenFeature(listens).listen(7, honoured, true, notifier).subscribe();
        try {
            long deadline = System.nanoTime() + Patience.scaled(java.time.Duration.ofSeconds(10)).toNanos();
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(List.of("notifications/subscriptions/acknowledged with 1 open"), seen,
                    "the watcher, which counts open listens, must not find this one missing after its acknowledgement");
        } finally {
            listening.dispose();
        }
        assertEquals(0, listens.open(), "a listen that ends is counted no more");
    }
}
