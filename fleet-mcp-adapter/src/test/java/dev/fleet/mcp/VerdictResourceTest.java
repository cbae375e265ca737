package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.mcp.http.RunningHttpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The resource {@code fleet://verdict} over streamable HTTP, in process, with the SDK's HTTP client
 * (which keeps the GET stream open): read, -32002, subscribe, one notification per change, none
 * without a subscriber.
 */
class VerdictResourceTest {

    private final InMemoryRegistry registry = new InMemoryRegistry();
    private final AtomicReference<Snapshot> fleetNow = new AtomicReference<>();
    private final AtomicInteger assessments = new AtomicInteger();
    private final ServerIdentity identity = Fixtures.httpIdentity();
    private final AssessFleetInventoryUseCase counting = () -> {
        assessments.incrementAndGet();
        return FleetClassifier.classify(fleetNow.get());
    };
    private final ServerLifecycleService lifecycle =
            Fixtures.lifecycle(identity, registry, new FixedClock(Instant.parse("2026-07-28T02:00:00Z")));
    private final FleetMcpServer fleet = new FleetMcpServer(counting, lifecycle, lifecycle, Duration.ofHours(1));

    @Test
    void readSubscribeAndOneNotificationPerChangeOverStreamableHttp() throws Exception {
        AnsweredBy answeredBy = identity.answeredBy();
        fleetNow.set(Fixtures.satisfied(answeredBy));
        List<List<McpSchema.ResourceContents>> updates = new CopyOnWriteArrayList<>();
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, StreamableHttpEndpoint.DEFAULT_HOST, 0);
                McpSyncClient client = client(running, updates)) {
            McpSchema.InitializeResult initialized = client.initialize();
            assertEquals(Boolean.TRUE, initialized.capabilities().resources().subscribe());
            assertEquals(Boolean.FALSE, initialized.capabilities().resources().listChanged());
            McpSchema.Resource listed = client.listResources().resources().get(0);
            assertEquals(VerdictResource.URI, listed.uri());
            assertEquals("application/json", listed.mimeType());
            assertEquals("Fleet inventory verdict", listed.title());

            String read = text(client.readResource(new McpSchema.ReadResourceRequest(VerdictResource.URI)));
            String tool = ((McpSchema.TextContent) client.callTool(new McpSchema.CallToolRequest(
                    AssessFleetInventoryTool.NAME, Map.of())).content().get(0)).text();
            assertEquals(tool, read, "the resource is the tool's verdict");

            McpError unknown = assertThrows(McpError.class,
                    () -> client.readResource(new McpSchema.ReadResourceRequest("fleet://nothing")));
            assertEquals(-32002, unknown.getJsonRpcError().code());
            McpError unknownSubscription = assertThrows(McpError.class,
                    () -> client.subscribeResource(new McpSchema.SubscribeRequest("fleet://nothing")));
            assertEquals(-32002, unknownSubscription.getJsonRpcError().code());

            int beforeIdle = assessments.get();
            Thread.sleep(2_500);
            assertEquals(beforeIdle, assessments.get(), "no subscription, no assessment in the background");
            assertFalse(fleet.feed().watching());

            client.subscribeResource(new McpSchema.SubscribeRequest(VerdictResource.URI));
            int subscribedAt = assessments.get();
            await(() -> assessments.get() >= subscribedAt + 2, "the subscribed server assesses every second");
            assertTrue(updates.isEmpty(), "an unchanged digest is no change: " + updates);

            fleetNow.set(Fixtures.duplicateAuthor(answeredBy));
            await(() -> updates.size() == 1, "one notification for the change");
            int changedAt = assessments.get();
            await(() -> assessments.get() >= changedAt + 2, "two more looks at the same fleet");
            assertEquals(1, updates.size(), "exactly one notification per change");

            client.unsubscribeResource(new McpSchema.UnsubscribeRequest(VerdictResource.URI));
            await(() -> !fleet.feed().watching(), "unsubscribing ends the background assessment");
            int unsubscribedAt = assessments.get();
            Thread.sleep(2_500);
            assertEquals(unsubscribedAt, assessments.get(), "nothing runs after the last subscriber left");
        }
    }

    private static String text(McpSchema.ReadResourceResult result) {
        McpSchema.TextResourceContents contents = (McpSchema.TextResourceContents) result.contents().get(0);
        assertEquals(VerdictResource.URI, contents.uri());
        assertEquals("application/json", contents.mimeType());
        return contents.text();
    }

    private static McpSyncClient client(RunningHttpServer running, List<List<McpSchema.ResourceContents>> updates) {
        return Fixtures.httpClient(running, client -> client
                .capabilities(McpSchema.ClientCapabilities.builder().build())
                .resourcesUpdateConsumer(updates::add));
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), condition, what);
    }
}
