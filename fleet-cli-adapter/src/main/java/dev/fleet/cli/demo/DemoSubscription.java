package dev.fleet.cli.demo;

import dev.fleet.mcp.VerdictResource;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's subscription to {@code fleet://verdict}: the demo's MCP clients hand every
 * {@code notifications/resources/updated} here (the SDK client reads the resource again and passes
 * its contents), and the demo waits for one after the second author appears. Read-only: a
 * subscription only listens.
 */
public final class DemoSubscription {

    private final AtomicInteger updates = new AtomicInteger();

    /** The SDK client's consumer of resource updates. */
    void updated(List<McpSchema.ResourceContents> contents) {
        synchronized (updates) {
            updates.incrementAndGet();
            updates.notifyAll();
        }
    }

    /** Subscribes {@code client} to the verdict; from now on its server tells it when the digest changes. */
    void subscribe(McpSyncClient client) {
        client.subscribeResource(new McpSchema.SubscribeRequest(VerdictResource.URI));
    }

    /** Notifications received so far. */
    public int received() {
        return updates.get();
    }

    /** Waits until more than {@code seen} notifications have arrived; false if none came within {@code patience}. */
    public boolean awaitMoreThan(int seen, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        synchronized (updates) {
            while (updates.get() <= seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(updates, left);
            }
            return true;
        }
    }
}
