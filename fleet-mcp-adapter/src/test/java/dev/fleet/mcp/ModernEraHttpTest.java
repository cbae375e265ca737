package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Snapshot;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.mcp.http.RunningHttpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The 2026-07-28 era over streamable HTTP, in process, with the Java SDK 2.2.0's modern client: the
 * discover result (capabilities as in 2025, no session), both tools, the verdict resource, and a listen
 * that is acknowledged with the verdict only, told of a change, and whose end stops the background
 * assessment.
 */
class ModernEraHttpTest {

    private final AtomicReference<Snapshot> fleetNow = new AtomicReference<>();
    private final AtomicInteger assessments = new AtomicInteger();
    private final ServerIdentity identity = Fixtures.httpIdentity();
    private final ServerLifecycleService lifecycle = Fixtures.lifecycle(identity, new InMemoryRegistry(),
            new FixedClock(Instant.parse("2026-07-28T02:00:00Z")));
    private final FleetMcpServer fleet = new FleetMcpServer(() -> {
        assessments.incrementAndGet();
        return FleetClassifier.classify(fleetNow.get());
    }, lifecycle, lifecycle, Duration.ofHours(1));

    @Test
    void discoverToolsResourceAndAListenThatAnnouncesAChange() throws Exception {
        fleetNow.set(Fixtures.satisfied(identity.answeredBy()));
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, StreamableHttpEndpoint.DEFAULT_HOST, 0)) {
            McpSyncClient client = ModernClients.of(running);
            McpSchema.DiscoverResult discovered = client.discover();
            assertEquals(List.of("2026-07-28", "2025-11-25"), discovered.supportedVersions(), "both eras, the modern first");
            assertEquals(Boolean.TRUE, discovered.capabilities().resources().subscribe());
            assertEquals(Boolean.FALSE, discovered.capabilities().resources().listChanged());
            assertEquals(Boolean.FALSE, discovered.capabilities().tools().listChanged());
            assertEquals(List.of(AssessFleetInventoryTool.NAME, RuntimeContextTool.NAME),
                    client.listTools().list().tools().stream().map(McpSchema.Tool::name).toList());
            assertEquals(ModernClients.assessment(client), ModernClients.verdict(client));

            List<SubscriptionEvent> events = new CopyOnWriteArrayList<>();
            try (McpSyncClient.Listening listening = client.listen()
                    .resourceUpdates(VerdictResource.URI, "fleet://nothing").open(events::add)) {
                await(fleet.feed()::watching, "a listen starts the background assessment");
                int listenedAt = assessments.get();
                await(() -> assessments.get() >= listenedAt + 2, "the listened-to server assesses every second");
                assertTrue(events.stream().noneMatch(SubscriptionEvent.ResourceUpdated.class::isInstance),
                        "an unchanged digest is no change: " + events);

                fleetNow.set(Fixtures.duplicateAuthor(identity.answeredBy()));
                await(() -> events.stream().anyMatch(event -> event instanceof SubscriptionEvent.ResourceUpdated
                        updated && updated.uri().equals(VerdictResource.URI)), "the change is announced");
            }
            await(() -> !fleet.feed().watching(), "the listen's end stops the background assessment");
            assertFalse(events.stream().anyMatch(event -> event instanceof SubscriptionEvent.ResourceUpdated updated
                    && !updated.uri().equals(VerdictResource.URI)), "only the verdict is honoured: " + events);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20), condition, what);
    }
}
